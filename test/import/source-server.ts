import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect } from 'vitest';
import { createMatchImporter, type MatchImporterOptions } from '../../src/import/match-importer.ts';
import type { ServiceError } from '../../src/protocol/errors.ts';

/**
 * Local stand-ins for FACEIT and HLTV: a real HTTP server on 127.0.0.1 that answers fixed
 * routes and records every request, so tests can count loads and check headers.
 */

/** A canned answer (with a status text of its own, if given), or 'hang': accept the request and never answer. */
export type Route =
  | { status?: number; statusText?: string; headers?: Record<string, string>; body: string }
  | 'hang';

export interface SourceServer {
  url: string;
  requests: { path: string; headers: IncomingHttpHeaders }[];
  /** Count of requests whose path starts with the prefix. */
  count(prefix: string): number;
  close(): Promise<void>;
}

// Real pages and payloads kept in the repository; test/fixtures/SOURCES.md says where each came from.
const FIXTURES = new URL('../fixtures/', import.meta.url);

export function fixtureText(name: string): string {
  return readFileSync(new URL(name, FIXTURES), 'utf8');
}

export function fixtureJson<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(fixtureText(name)) as T;
}

export const json = (value: unknown, status = 200): Route => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify(value),
});

export const html = (text: string, status = 200, headers: Record<string, string> = {}): Route => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
  body: text,
});

export async function startSourceServer(routes: Record<string, Route>): Promise<SourceServer> {
  const requests: SourceServer['requests'] = [];
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push({ path, headers: request.headers });
    const route = routes[path];
    if (route === 'hang') return;
    if (route === undefined) {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"errors":[{"message":"not found"}]}');
      return;
    }
    if (route.statusText === undefined) response.writeHead(route.status ?? 200, route.headers);
    else response.writeHead(route.status ?? 200, route.statusText, route.headers);
    response.end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    count: (prefix) => requests.filter((request) => request.path.startsWith(prefix)).length,
    close: () =>
      new Promise<void>((resolve) => {
        // Hanging requests and keep-alive sockets would hold close() open forever.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: bound once by the OS, then released. */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let testServer: SourceServer | undefined;
afterEach(async () => {
  await testServer?.close();
  testServer = undefined;
});

/** The source server of the running test (closed after it), to count and inspect its requests. */
export const currentSourceServer = (): SourceServer | undefined => testServer;

/** An importer whose sources (FACEIT site, Data API, HLTV) are one local server answering `routes`. */
export async function importerFor(
  routes: Record<string, Route>,
  { withKey = true, ...options }: Partial<MatchImporterOptions> & { withKey?: boolean } = {},
) {
  await testServer?.close();
  testServer = await startSourceServer(routes);
  return createMatchImporter({
    sources: {
      faceitUrl: testServer.url,
      faceitDataApiUrl: `${testServer.url}/data/v4`,
      hltvUrl: testServer.url,
      // The stand-in is a Data API host the operator confirmed: the key may go there.
      ...(withKey ? { faceitApiKey: 'test-key', faceitKeyHost: new URL(testServer.url).host } : {}),
    },
    ...options,
  });
}

/** The ServiceError an import fails with; the test fails if it succeeds. */
export async function failureOf(promise: Promise<unknown>): Promise<ServiceError> {
  return promise.then(
    () => expect.unreachable('the import should have failed'),
    (error: ServiceError) => error,
  );
}
