/**
 * HLAE's link (/hlae) from another PC, from real addresses in network namespaces: the automation
 * server's rules (docs/access.md) hold for it as for its WebSocket. In LAN mode a local-network PC
 * with the access token connects; without it 401 before the upgrade; from outside 403 even with it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HLAE_PATH } from '../../src/protocol/game.ts';
import { build } from '../helpers/build.ts';
import { createTestNetwork, netnsSkipReason, type TestNetwork } from '../helpers/netns.ts';

const skipReason = netnsSkipReason();

describe.skipIf(skipReason)(
  `HLAE's link from the network${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let net: TestNetwork;
    beforeAll(async () => {
      net = await createTestNetwork();
    });
    afterAll(async () => {
      await net?.close();
    });

    it('in LAN mode: with the token it connects, without it 401, from outside 403', async () => {
      const server = await build({ overrides: { lanMode: true } });
      const token = server.service.secrets.token();
      const without = await net.openWs('lan', { port: server.port, path: HLAE_PATH });
      expect(without.outcome).toBe('refused');
      expect(without.refusal).toMatchObject({ status: 401, json: { ok: false, error: 'unauthorized' } });
      const outside = await net.openWs('outside', { port: server.port, path: `${HLAE_PATH}?token=${token}` });
      expect(outside.outcome).toBe('refused');
      expect(outside.refusal).toMatchObject({ status: 403, json: { ok: false, error: 'forbidden' } });
      expect(server.service.game.status().hlae.connected).toBe(false);

      const lan = await net.openWs('lan', { port: server.port, path: `${HLAE_PATH}?token=${token}` });
      expect(lan.outcome).toBe('open');
      await vi.waitFor(() =>
        expect(server.service.game.status().hlae).toMatchObject({ connected: true, source: net.lan.address }),
      );
      lan.close();
      await vi.waitFor(() => expect(server.service.game.status().hlae.connected).toBe(false));
    });
  },
);
