/**
 * The link to the game's network console (CS2 started with `-netconport <port>`): plain TCP, one
 * command per line. One actor is one try and, if it connects, the whole connection: the observer
 * machine starts a new one for every try (back-off in the machine), so this actor never retries by
 * itself and reports exactly one `observer.link.closed`.
 */
import { createConnection, type Socket } from 'node:net';
import { fromCallback } from 'xstate';
import {
  type NetconCommand,
  type NetconFailure,
  type NetconSocketEvent,
  type NetconSocketInput,
  netconBackoffDelay,
  observerMachine,
} from '../../machines/observer.machine.ts';
import { checkNetconAddress } from './netcon-address.ts';
import { cutLines, isAllowedLine, RELEASE_LINE } from './netcon-lines.ts';
import { discardOutput, NETCON_READ_BUDGET } from './netcon-output.ts';

/** A try that neither connects nor fails within this is given up (a PC that drops packets). */
export const NETCON_CONNECT_TIMEOUT_MS = 3_000;

/**
 * After the release line, how long the game may take to close its side. A console that never closes
 * is not waited for: the socket is destroyed then, so no change of address leaves a socket behind.
 */
export const NETCON_CLOSE_GRACE_MS = 1_000;

export interface NetconSocketOptions {
  /** Each line written, after the whitelist check (for logs). */
  onLine?: (line: string) => void;
  /** A cut that could not be turned into a console line (no account id), for logs. */
  onRefused?: (steamid: string) => void;
  connectTimeoutMs?: number;
}

/** The console actor: each cut names its strategy (machines/observer-strategies.ts), turned into checked lines here. */
export function createNetconSocket(options: NetconSocketOptions) {
  const timeoutMs = options.connectTimeoutMs ?? NETCON_CONNECT_TIMEOUT_MS;
  return fromCallback<NetconCommand, NetconSocketInput>(({ input, sendBack, receive }) => {
    let stopped = false;
    let closed = false;
    let connected = false;
    /** A lock was sent: on stop, the camera is handed back to the observer. */
    let locked = false;
    let lastError: NodeJS.ErrnoException | null = null;

    const report = (event: NetconSocketEvent) => {
      if (!stopped) sendBack(event);
    };
    const reportClosed = (reason: NetconFailure, message: string) => {
      if (closed) return;
      closed = true;
      report({ type: 'observer.link.closed', reason, message });
    };

    const address = checkNetconAddress(input.host, input.port);
    if (!address.ok) {
      // Reported after the machine has finished starting this actor.
      queueMicrotask(() => reportClosed('address_refused', address.message));
      return () => {
        stopped = true;
      };
    }

    const socket: Socket = createConnection({ host: address.host, port: address.port });
    socket.setNoDelay(true);
    socket.setTimeout(timeoutMs);
    discardOutput(socket, NETCON_READ_BUDGET);
    socket.on('timeout', () => {
      if (connected) return;
      lastError = Object.assign(
        new Error(`no answer from ${address.host}:${address.port} within ${timeoutMs / 1000} s`),
        {
          code: 'ETIMEDOUT',
        },
      );
      socket.destroy();
    });
    socket.on('connect', () => {
      connected = true;
      socket.setTimeout(0);
      report({ type: 'observer.link.connected' });
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      lastError = error;
    });
    socket.on('close', () => {
      const where = `${address.host}:${address.port}`;
      if (connected)
        reportClosed(
          'closed',
          lastError ? `${lastError.message}` : `the game closed the console at ${where}`,
        );
      else reportClosed(failureOf(lastError), lastError?.message ?? `could not connect to ${where}`);
    });

    const write = (line: string) => {
      // The last gate: only a line the whitelist builds goes out, whatever reached this actor.
      if (!isAllowedLine(line) || !connected || socket.destroyed) return false;
      socket.write(`${line}\n`);
      options.onLine?.(line);
      return true;
    };

    receive((command) => {
      if (command.type === 'netcon.release') {
        if (locked && write(RELEASE_LINE)) locked = false;
        return;
      }
      if (command.type !== 'netcon.cut') return;
      const lines = cutLines(command.strategy, { steamid: command.steamid, name: command.name });
      if (!lines) {
        options.onRefused?.(String(command.steamid));
        return;
      }
      for (const line of lines) if (write(line) && line.startsWith('spec_lock_to_accountid ')) locked = true;
    });

    return () => {
      stopped = true;
      if (connected && locked && !socket.destroyed) {
        // Auto mode ended (or the address changed): hand the camera back to the human observer,
        // and give the game a moment to read it before the socket goes.
        write(RELEASE_LINE);
        socket.end();
        const grace = setTimeout(() => socket.destroy(), NETCON_CLOSE_GRACE_MS);
        socket.once('close', () => clearTimeout(grace));
      } else {
        socket.destroy();
      }
    };
  });
}

/** How a try failed, from Node's error code. */
export function failureOf(error: NodeJS.ErrnoException | null): NetconFailure {
  switch (error?.code) {
    case 'ECONNREFUSED':
      return 'refused';
    case 'ETIMEDOUT':
      return 'timeout';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
    case 'EADDRNOTAVAIL':
      return 'unreachable';
    default:
      return 'closed';
  }
}

/**
 * Spreads retries by ±20 % so a service restarted with the game does not knock in step with it.
 * `random` is injectable for tests.
 */
export function jitteredNetconDelay(attempt: number, random: () => number = Math.random): number {
  return Math.round(netconBackoffDelay(attempt) * (0.8 + 0.4 * random()));
}

/** The observer machine wired to the real game console: the actor to run in the service. */
export function createObserverLive(options: NetconSocketOptions) {
  return observerMachine.provide({
    actors: { netconSocket: createNetconSocket(options) },
    delays: { retryDelay: ({ context }) => jitteredNetconDelay(context.attempt) },
  });
}
