/**
 * Game data from another PC (a separate observer machine), from real addresses in network
 * namespaces: with LAN mode on and the cfg's auth token its frames are taken, at the game's pace
 * (the local-network rate limit does not apply); without the token, or from outside, refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, get } from '../helpers/build.ts';
import { FAZE_NAVI, fixture, toCs2, withToken } from '../helpers/gsi.ts';
import { createTestNetwork, netnsSkipReason, type TestNetwork } from '../helpers/netns.ts';

const skipReason = netnsSkipReason();

describe.skipIf(skipReason)(
  `game data from the network${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let net: TestNetwork;
    beforeAll(async () => {
      net = await createTestNetwork();
    });
    afterAll(async () => {
      await net?.close();
    });

    it('in LAN mode an observer PC posts with the token, 40 frames in a row; without it 401; from outside 403', async () => {
      const server = await build({ overrides: { lanMode: true } });
      const port = server.applicationPort;
      const frame = toCs2(await fixture(FAZE_NAVI));
      const good = withToken(frame, server.service.game.token);
      for (let i = 0; i < 40; i++) {
        const answer = await net.http('lan', { port, method: 'POST', path: '/gsi', body: good });
        expect(answer.status, `frame ${i}`).toBe(200);
      }
      expect((await get(server, '/api/state')).body.state.roster).toHaveLength(10);
      expect(server.service.game.status()).toMatchObject({ receiving: true, source: net.lan.address });

      const without = await net.http('lan', {
        port,
        method: 'POST',
        path: '/gsi',
        body: withToken(frame, undefined),
      });
      expect(without.status).toBe(401);
      expect(without.json).toMatchObject({ ok: false, error: 'unauthorized' });
      const outside = await net.http('outside', { port, method: 'POST', path: '/gsi', body: good });
      expect(outside.status).toBe(403);
      expect(outside.json).toMatchObject({ ok: false, error: 'forbidden' });
    });

    it('with LAN mode off the application server is not on the network at all', async () => {
      const server = await build();
      const good = withToken(toCs2(await fixture(FAZE_NAVI)), server.service.game.token);
      const answer = await net.http('lan', {
        port: server.applicationPort,
        method: 'POST',
        path: '/gsi',
        body: good,
      });
      expect(answer.status).toBeNull();
      expect(answer.error?.code).toBe('ECONNREFUSED');
      expect(server.service.game.status().frames).toBe(0);
    });
  },
);
