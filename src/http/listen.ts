import type { Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { classifyAddress } from '../net/address-class.ts';

/** Loopback only while local network mode is off; every interface (IPv6 and IPv4) while it is on. */
export const listenHostFor = (lanMode: boolean) => (lanMode ? '::' : '127.0.0.1');

/**
 * One server's listening socket, opened and closed as the settings say, on the same port each time
 * (the first opening of port 0 picks a free one and keeps it): LAN mode moves it between loopback
 * and every interface without a restart, and the automation server's switch closes it.
 */
export class Listener {
  #port: number;
  #host: string | null = null;

  constructor(
    private readonly server: Server,
    port: number,
    /** The flag that chooses the port, for the message when it is taken. */
    private readonly flag: string,
    /** "Automation server", "Application server": for the log. */
    private readonly name: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.#port = port;
  }

  get port(): number {
    return this.#port;
  }

  get listening(): boolean {
    return this.#host !== null;
  }

  /** Listens on the host the mode wants, or stops listening when `open` is false. */
  async apply(open: boolean, lanMode: boolean): Promise<void> {
    const host = open ? listenHostFor(lanMode) : null;
    if (host === this.#host) return;
    if (this.#host !== null) {
      // close() stops listening at once; its callback would wait for every open connection.
      this.server.close();
      this.#host = null;
    }
    if (host === null) {
      this.log.info(`${this.name} switched off: port ${this.#port} closed`);
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const fail = (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EADDRINUSE') return reject(error);
        const message = `port ${this.#port} is in use (another hud-automation, or another program): stop it or choose another with ${this.flag}`;
        reject(new Error(message));
      };
      this.server.once('error', fail);
      this.server.listen({ port: this.#port, host }, () => {
        this.server.off('error', fail);
        resolve();
      });
    });
    const address = this.server.address();
    if (typeof address === 'object' && address) this.#port = address.port;
    this.#host = host;
    this.log.info(`${this.name} listening at ${this.urls('http').join(', ')}`);
  }

  /** The base addresses clients can use: loopback, then each local-network address when LAN mode is on. */
  urls(scheme: 'http' | 'ws'): string[] {
    if (!this.listening) return [];
    const urls = [`${scheme}://127.0.0.1:${this.#port}`];
    if (this.#host === '::') {
      for (const address of localNetworkAddresses()) {
        urls.push(`${scheme}://${address.includes(':') ? `[${address}]` : address}:${this.#port}`);
      }
    }
    return urls;
  }
}

/** This machine's addresses that local-network devices can reach (no link-local IPv6: it needs a zone). */
export function localNetworkAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal && !(entry.family === 'IPv6' && entry.address.startsWith('fe80')))
    .map((entry) => entry.address)
    .filter((address) => classifyAddress(address) === 'local-network');
}
