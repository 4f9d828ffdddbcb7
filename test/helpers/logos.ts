/**
 * Team logos in tests: the service without its logo fetch, images made here, a logo host of their
 * own. The server fetches logos only from devices that are not this machine (src/import/address-guard.ts),
 * so the logo host listens on a device of the local network: a test network's namespace.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import { afterAll, afterEach } from 'vitest';
import { matchMachine } from '../../machines/match.machine.ts';
import type { supervisorMachine } from '../../machines/supervisor.machine.ts';
import type { RunningServer } from '../../src/server.ts';
import { pngChunk } from './images.ts';
import type { TestNetwork } from './netns.ts';
import { createTestNetwork } from './netns.ts';
import { listenInNamespace } from './netns-listen.ts';
import { connect } from './ws-client.ts';

/**
 * The service as it runs, but the match's logo fetch never reports (each remote logo stays
 * `fetching`): for tests whose logos live on the real CDNs (the import fixtures) and that count
 * revisions, which a fetch settling in the background would add to.
 */
export const withoutLogoFetch = (live: typeof supervisorMachine) =>
  live.provide({ actors: { match: matchMachine } });

/**
 * A real PNG of one colour (a browser decodes it: naturalWidth is `size`), made here so no binary
 * fixture is needed. `rgb` as 0xRRGGBB.
 */
export function pngOf(size: number, rgb: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  const row = Buffer.alloc(1 + size * 3);
  for (let x = 0; x < size; x += 1) row.writeUIntBE(rgb, 1 + x * 3, 3);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    pngChunk('IHDR', header),
    pngChunk('IDAT', pixels),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An SVG logo: a circle in a colour and a word, with a size of its own. */
export const svgOf = (text: string, colour: string) =>
  Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<!-- a team logo -->\n<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128"><circle cx="64" cy="64" r="60" fill="${colour}"/><text x="64" y="76" font-size="36" font-family="sans-serif" font-weight="bold" fill="#fff" text-anchor="middle">${text}</text></svg>`,
  );

/**
 * What a logo server answers on a path: a body with a content type (and any other headers, a
 * status text), or 'hang' (never answers).
 */
export type LogoRoute =
  | {
      status?: number;
      statusText?: string;
      type?: string;
      headers?: Record<string, string>;
      body: Buffer | string;
    }
  | 'hang';

export interface LogoServer {
  /** `http://<address>:<port>`, as a logo address starts. */
  url: string;
  port: number;
  /** The paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Where a logo host listens: `lan` and `lan6`, a device of the local network (the test network's
 * hosts, IPv4 and IPv6 unique local); `{ address }`, another address of the `lan` host (added with
 * `addAddress` first); `this machine`, every interface of this machine (`::`: loopback and the
 * machine's own addresses, which the server must not fetch from).
 */
export type LogoServerPlace = 'lan' | 'lan6' | { address: string } | 'this machine';

let network: Promise<TestNetwork> | undefined;

/** The test network of this file: made once, when a logo host first needs it, removed after the file. */
export function logoNetwork(): Promise<TestNetwork> {
  network ??= createTestNetwork();
  return network;
}

afterAll(async () => {
  const made = network;
  network = undefined;
  if (made) await (await made).close();
});

/** A logo host: fixed answers by path, 404 for any other, every request recorded. */
export async function startLogoServer(
  routes: Record<string, LogoRoute>,
  place: LogoServerPlace = 'lan',
): Promise<LogoServer> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push(path);
    const route = routes[path];
    if (route === 'hang') return;
    if (!route) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const headers = { ...(route.type ? { 'content-type': route.type } : {}), ...route.headers };
    const status = route.status ?? 200;
    if (route.statusText === undefined) response.writeHead(status, headers);
    else response.writeHead(status, route.statusText, headers);
    response.end(route.body);
  });
  let host: string;
  if (place === 'this machine') {
    await new Promise<void>((resolve) => server.listen(0, '::', resolve));
    host = '127.0.0.1';
  } else {
    const net = await logoNetwork();
    const address = place === 'lan' ? net.lan.address : place === 'lan6' ? net.lan6.address : place.address;
    const namespace = place === 'lan6' ? net.lan6.namespace : net.lan.namespace;
    const { handle } = await listenInNamespace(namespace, address);
    await new Promise<void>((resolve) => server.listen(handle, resolve));
    host = address.includes(':') ? `[${address}]` : address;
  }
  const port = (server.address() as AddressInfo).port;
  const logos: LogoServer = {
    url: `http://${host}:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  open.push(logos);
  return logos;
}

const open: LogoServer[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) await server.close();
});

/** The match summary in a message: the hello's snapshot, or a match event. */
const matchIn = (m: any) =>
  m.type === 'hello' ? m.snapshot.match : m.type === 'event' && m.event === 'match' ? m.data : undefined;

/** The match summary's logo of a team once it is no longer being fetched, as a page hears it. */
export async function settledLogo(server: RunningServer, side: 'A' | 'B') {
  const client = await connect(server.wsUrl);
  try {
    const match = matchIn(
      await client.waitFor((m) => {
        const logo = matchIn(m)?.logos[side];
        return logo !== undefined && logo !== null && logo.state !== 'fetching';
      }),
    );
    return match.logos[side] as { state: string; src?: string; reason?: string };
  } finally {
    client.close();
  }
}
