/**
 * Companion on another machine of the local network: the module runs in a network namespace and
 * reaches the server in local network mode through a real non-loopback address, with the token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestNetwork, netnsSkipReason, type TestNetwork } from '../../test/helpers/netns.ts';
import { CompanionHost } from './helpers/companion-host.ts';
import { type HudServer, startHudServer } from './helpers/hud-server.ts';

const skip = netnsSkipReason();
const WRONG_TOKEN = 'A'.repeat(43);

describe.skipIf(skip)(`Companion on the local network${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let net: TestNetwork;
  let server: HudServer;
  let token: string;
  const hosts: CompanionHost[] = [];

  async function companionIn(name: 'lan' | 'lan6', withToken: string): Promise<CompanionHost> {
    const where = net[name];
    const host = await CompanionHost.start({
      namespace: where.namespace,
      config: { host: where.serverAddress, port: server.port, token: withToken },
    });
    hosts.push(host);
    return host;
  }

  beforeAll(async () => {
    [net, server] = await Promise.all([createTestNetwork(), startHudServer({ lan: true })]);
    token = await server.token();
  });
  afterAll(async () => {
    await Promise.all(hosts.map((host) => host.stop()));
    await server?.close();
    await net?.close();
  });

  it('connects with the token over IPv4 and IPv6, and its buttons follow the show', async () => {
    const ipv4 = await companionIn('lan', token);
    const ipv6 = await companionIn('lan6', token);
    await Promise.all([ipv4.waitForStatus('ok'), ipv6.waitForStatus('ok')]);
    const lit4 = ipv4.addFeedback('panel_visible', { panel: 'scoreboard' });
    const lit6 = ipv6.addFeedback('panel_visible', { panel: 'scoreboard' });
    await ipv4.waitForFeedback(lit4, false);
    await ipv4.runAction('toggle_scoreboard', {});
    expect(ipv4.logs.at(-1)?.message).toMatch(/^toggle_scoreboard done/);
    await Promise.all([ipv4.waitForFeedback(lit4, true), ipv6.waitForFeedback(lit6, true)]);
    const { body } = await server.get('/internal/requests');
    const pressed = body.requests.find((record: { request: string }) =>
      record.request.endsWith('/toggle_scoreboard'),
    );
    expect(pressed).toMatchObject({ status: 200, address: net.lan.address });
  });

  it('reports a wrong token as a bad token, and a missing one as needed', async () => {
    const wrong = await companionIn('lan', WRONG_TOKEN);
    await wrong.waitForStatus('authentication_failure');
    expect(wrong.status?.message).toMatch(/^bad token: 10\.231\.\d+\.\d+:\d+ refused the access token/);
    expect(wrong.variables.get('connection_status')).toBe('bad token');
    const none = await companionIn('lan6', '');
    await none.waitForStatus('authentication_failure');
    expect(none.status?.message).toMatch(/needs the access token \(local network mode\)$/);
  });

  it('reports a bad token when the token is regenerated while connected (4401)', async () => {
    const connected = await companionIn('lan', token);
    await connected.waitForStatus('ok');
    const regenerated = await server.post('/internal/token/regenerate', {});
    expect(regenerated.status).toBe(200);
    await connected.waitForStatus('authentication_failure');
    expect(connected.statuses.map((change) => change.message)).toContain(
      'bad token: the server closed the connection (4401)',
    );
    await connected.updateConfig({
      host: net.lan.serverAddress,
      port: server.port,
      token: regenerated.body.token,
    });
    await connected.waitForStatus('ok');
    token = regenerated.body.token;
  });

  it('is told when it presses faster than the rate limit, and nothing is retried', async () => {
    const fast = await companionIn('lan', token);
    await fast.waitForStatus('ok');
    const before = (await server.get('/internal/requests')).body.requests.length;
    const presses = Array.from({ length: 25 }, (_, index) =>
      fast.runAction('show_scoreboard', {}, `bank:9/0/${index}`),
    );
    await Promise.all(presses);
    const refused = fast.logs.filter((line) =>
      /^show_scoreboard refused \(429 rate_limited\)/.test(line.message),
    );
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]?.level).toBe('warn');
    const { body } = await server.get('/internal/requests');
    const commands = body.requests
      .slice(0, body.requests.length - before)
      .filter((record: { request: string }) => record.request.endsWith('/show_scoreboard'));
    // Each press reached the server once: the refusals in a row count on one entry (`count`).
    const reached = commands.reduce(
      (sum: number, record: { count?: number }) => sum + (record.count ?? 1),
      0,
    );
    expect(reached).toBe(25);
  });
});
