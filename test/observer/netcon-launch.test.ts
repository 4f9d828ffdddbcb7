/**
 * Ready before going live (issue 32): the observer PC's launch options, and which one the link's
 * failure probably points at, in GET /api/observer over the real server and in the pure rule.
 */
import { describe, expect, it } from 'vitest';
import { launchAdviceOf } from '../../src/observer/netcon-launch.ts';
import { build, get, ok } from '../helpers/build.ts';
import { ConsoleStandIn } from '../helpers/console-stand-in.ts';
import { unusedPort } from '../import/source-server.ts';

describe('the launch options and what is probably missing', () => {
  it('the rule: refused points at -netconport (and -tools), a time-out at the firewall, nothing wrong says nothing', () => {
    expect(launchAdviceOf('127.0.0.1', 2121, '127.0.0.1:2121', null)).toEqual({
      options: '-netconport 2121 -tools',
      missing: null,
      advice: null,
    });
    const refused = launchAdviceOf('192.168.1.20', 2200, '192.168.1.20:2200', 'refused');
    expect(refused.options).toBe('-netconport 2200 -tools');
    expect(refused.missing).toBe('-netconport 2200');
    expect(refused.advice).toMatch(
      /^Nothing listens on 192\.168\.1\.20:2200: .* without -netconport 2200 \(on Windows also -tools, without which the port does not open\)\..* -insecure/,
    );
    expect(launchAdviceOf('192.168.1.20', 2200, '192.168.1.20:2200', 'timeout')).toMatchObject({
      missing: null,
      advice: expect.stringMatching(/firewall probably drops the port\. Allow TCP 2200 in for cs2\.exe/),
    });
    expect(launchAdviceOf('10.0.0.9', 2121, '10.0.0.9:2121', 'unreachable').advice).toMatch(
      /cannot be reached/,
    );
    for (const reason of ['not_auto', 'closed', 'address_refused'] as const)
      expect(launchAdviceOf('127.0.0.1', 2121, '127.0.0.1:2121', reason)).toMatchObject({
        missing: null,
        advice: null,
      });
  });

  it('GET /api/observer: a port nothing listens on names -netconport; once the game listens, the advice goes', async () => {
    const port = await unusedPort();
    const server = await build({ subscriptionActive: true, netcon: { host: '127.0.0.1', port } });
    await ok(server, 'set_smart_observer', { enabled: true, mode: 'suggest' });
    const observer = async () => (await get(server, '/api/observer')).body.observer;
    await expect.poll(async () => (await observer()).link.reason, { timeout: 10_000 }).toBe('refused');
    expect((await observer()).launch).toEqual({
      options: `-netconport ${port} -tools`,
      missing: `-netconport ${port}`,
      advice: expect.stringMatching(new RegExp(`^Nothing listens on 127\\.0\\.0\\.1:${port}: `)),
    });
    // The game starts with the options: the link connects on its next try, and the view says nothing is missing.
    const game = new ConsoleStandIn();
    await game.listen(port);
    try {
      await expect
        .poll(async () => (await observer()).link.connection, { timeout: 15_000 })
        .toBe('connected');
      expect((await observer()).launch).toEqual({
        options: `-netconport ${port} -tools`,
        missing: null,
        advice: null,
      });
    } finally {
      await game.close();
    }
  });
});
