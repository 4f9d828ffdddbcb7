/**
 * The logo fetch's address rule (issue 37, defect 2), on the fetch alone: every spelling of this
 * machine is refused before a connection is tried, and the refusal reads the same whether something
 * listens there or not. The whole path (set_teams, a LAN logo host, redirects, link-local) is
 * test/app-server/team-logos.test.ts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchLogo } from '../../src/import/logo-fetch.ts';
import { pngOf } from '../helpers/logos.ts';
import { unusedPort } from './source-server.ts';

const REFUSED =
  /its address is refused \(the server never fetches from this machine, link-local or special addresses\)$/;

const stored: Buffer[] = [];
const options = {
  timeoutMs: 5000,
  store: async (bytes: Buffer) => {
    stored.push(bytes);
    return '/media/stored.png';
  },
};

/** A logo host on every interface of this machine (`::`, dual stack), counting what reaches it. */
async function logoHostHere() {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '/');
    response.writeHead(200, { 'content-type': 'image/png' }).end(pngOf(4, 0x123456));
  });
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  closing.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, requests };
}

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
  stored.length = 0;
});

const failureOf = (logo: string) =>
  fetchLogo(logo, options).then(
    (src) => expect.unreachable(`${logo} was fetched and stored as ${src}`),
    (error: Error) => error.message,
  );

describe('the logo fetch refuses this machine, however it is written', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['localhost', 'a name that resolves to loopback (the name path: checked after DNS)'],
    ['[::1]', 'IPv6 loopback'],
    ['[::ffff:127.0.0.1]', 'IPv4-mapped loopback'],
    ['0.0.0.0', 'unspecified (reaches this machine)'],
    ['[::]', 'IPv6 unspecified'],
    ['2130706433', 'decimal'],
    ['0177.0.0.1', 'octal'],
    ['0x7f.1', 'hex shorthand'],
    ['[::127.0.0.1]', 'IPv4-compatible'],
    ['[64:ff9b::7f00:1]', 'NAT64'],
  ])('%s (%s): refused before any connection', async (host, _what) => {
    const here = await logoHostHere();
    // Without the rule the address answers: the refusal is the guard's, not the network's.
    expect((await fetch(`http://127.0.0.1:${here.port}/control.png`)).status).toBe(200);
    expect(await failureOf(`http://${host}:${here.port}/logo.png`)).toMatch(REFUSED);
    expect(here.requests).toEqual(['/control.png']);
    expect(stored).toEqual([]);
  });

  it('says the same of a port where something listens and of one where nothing does (no port map)', async () => {
    const here = await logoHostHere();
    const closed = await unusedPort();
    const listening = await failureOf(`http://127.0.0.1:${here.port}/logo.png`);
    const nothing = await failureOf(`http://127.0.0.1:${closed}/logo.png`);
    expect(listening.replaceAll(String(here.port), 'PORT')).toBe(nothing.replaceAll(String(closed), 'PORT'));
    expect(nothing).toMatch(REFUSED);
    expect(nothing).not.toMatch(/connection was refused/);
  });
});
