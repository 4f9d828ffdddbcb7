/**
 * A host is a host (issue 22): its IPv4 aliases on one link, and the link-local addresses of one
 * interface, share one budget of connections and requests; all remote connections together keep
 * half the descriptors free, so a service started with few of them stays up and serves this
 * machine and the token holders while hosts of the network hold all they may. Real addresses from
 * network namespaces (test/helpers/netns.ts); docs/access.md is the contract.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONNECTIONS_PER_DEVICE, remoteConnectionCap } from '../../src/http/connection-limits.ts';
import { build } from '../helpers/build.ts';
import { startCli } from '../helpers/cli-process.ts';
import { createTestNetwork, type HostName, netnsSkipReason, type TestNetwork } from '../helpers/netns.ts';

const skipReason = netnsSkipReason();

async function lanServer() {
  const server = await build({ overrides: { lanMode: true } });
  return { server, port: server.port, token: server.service.secrets.token() };
}

describe.skipIf(skipReason)(`per-host budgets${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let net: TestNetwork;
  /** Ten addresses of the lan host: its own and nine aliases outside its /30. */
  let aliases: string[];
  /** Four link-local addresses of the link-local host, with their zone. */
  let linkLocals: string[];
  beforeAll(async () => {
    net = await createTestNetwork();
    const slot = Number(net.lan.address.split('.')[3]) >> 2;
    aliases = [net.lan.address];
    for (let i = 1; i <= 9; i++) {
      const alias = `10.232.${slot}.${i}`;
      await net.addAddress('lan', alias);
      aliases.push(alias);
    }
    // A client binds a link-local address with its interface: the zone of the address it dials.
    const zone = net.linkLocal.connectHost.slice(net.linkLocal.connectHost.indexOf('%'));
    linkLocals = [`${net.linkLocal.address}${zone}`];
    for (const last of [3, 4, 5]) {
      await net.addAddress('linkLocal', `fe80::${last}`);
      linkLocals.push(`fe80::${last}${zone}`);
    }
  });
  afterAll(async () => {
    await net?.close();
  });

  it("ten IPv4 aliases of one host share its 20 requests a second, whoever's token they carry", async () => {
    const { port, token } = await lanServer();
    const headers = { authorization: `Bearer ${token}` };
    const counts: Record<string, number> = {};
    // Each alias in turn sends 8 at once (80 in a fraction of a second, at most 8 connections).
    for (const localAddress of aliases) {
      const burst = await net.burst('lan', { port, path: '/api/state', headers, count: 8, localAddress });
      for (const [status, n] of Object.entries(burst.counts)) counts[status] = (counts[status] ?? 0) + n;
    }
    // One host: 20 a window, 40 at most if they straddle two windows. Counted per address, each
    // alias's 8 would all have passed.
    expect((counts['200'] ?? 0) + (counts['429'] ?? 0)).toBe(80);
    expect(counts['200']).toBeLessThanOrEqual(40);
    expect(counts['429']).toBeGreaterThanOrEqual(40);
  });

  it('IPv4 aliases and link-local addresses share their host’s connections; another host is served', async () => {
    const { server, port, token } = await lanServer();
    const headers = { authorization: `Bearer ${token}` };
    for (const [host, addresses] of [
      ['lan', aliases],
      ['linkLocal', linkLocals],
    ] as Array<[HostName, string[]]>) {
      const held = await net.hold(host, {
        port,
        count: MAX_CONNECTIONS_PER_DEVICE,
        localAddress: addresses[0],
      });
      try {
        expect(held.connected, host).toBe(MAX_CONNECTIONS_PER_DEVICE);
        for (const localAddress of addresses.slice(1, 3)) {
          const more = await net.http(host, { port, path: '/health', headers, localAddress });
          expect(more.status, `${host} ${localAddress}: its host is at its cap`).toBeNull();
        }
        const other = await net.http('lan6', { port, path: '/health', headers });
        expect(other.status, 'a token holder on another host').toBe(200);
        expect((await fetch(`${server.httpUrl}/health`)).status).toBe(200);
      } finally {
        held.release();
      }
    }
  });

  it('with 300 descriptors, hosts holding all they may leave half free: the service stays up for this machine', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hud-fds-'));
    const limit = 300;
    const cli = await startCli(
      ['--headless', '--no-obs', '--lan', '--data-dir', dataDir, '--log-level', 'warn'],
      {},
      undefined,
      limit,
    );
    const port = Number(new URL(cli.httpUrl).port);
    const cap = remoteConnectionCap(limit);
    expect(cap).toBe(150);
    const hosts: HostName[] = ['lan', 'lan6', 'linkLocal', 'outside', 'outside6'];
    const holds = [];
    // Four hosts hold their 32 (128, under the cap); the fifth gets the 22 left, 10 are closed.
    for (const host of hosts.slice(0, 4)) {
      holds.push(await net.hold(host, { port, count: MAX_CONNECTIONS_PER_DEVICE }));
    }
    const last = await net.hold('outside6', { port, count: MAX_CONNECTIONS_PER_DEVICE, expectClosed: 10 });
    holds.push(last);
    try {
      expect(holds.map((hold) => hold.connected)).toEqual([32, 32, 32, 32, cap - 4 * 32]);
      expect(last.closed).toBe(10);
      // The other link-local addresses of that host: their host is at its cap, and so is the server.
      const linkLocalFlood = await Promise.all(
        linkLocals
          .slice(1)
          .map((localAddress) => net.hold('linkLocal', { port, count: 8, localAddress, expectClosed: 8 })),
      );
      for (const flood of linkLocalFlood) expect(flood).toMatchObject({ connected: 0, closed: 8 });
      for (const flood of linkLocalFlood) flood.release();
      expect((await fetch(`${cli.httpUrl}/health`)).status).toBe(200);
      expect(cli.child.exitCode).toBeNull();
    } finally {
      for (const hold of holds) hold.release();
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
    expect(cli.output()).not.toMatch(/uv_if_indextoiid|Uncaught|ERR_/);
  });
});
