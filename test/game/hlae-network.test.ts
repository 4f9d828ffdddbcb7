/**
 * HLAE's link (/hlae) from another PC, from real addresses in network namespaces: the automation
 * server's rules (docs/access.md) hold for it as for its WebSocket. In LAN mode a local-network PC
 * with the access token connects; without it 401 before the upgrade; from outside 403 even with it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HLAE_PATH } from '../../src/protocol/game.ts';
import { build } from '../helpers/build.ts';
import { panelApi } from '../helpers/hud.ts';
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

    it('gives the signed-in operator the lines for another PC, and they connect from it', async () => {
      const server = await build({ overrides: { lanMode: true } });
      const token = server.service.secrets.token();
      const api = await panelApi(server);
      const setup = async () => {
        const response = await fetch(`${server.applicationUrl}/api/panel/game`, {
          headers: { cookie: api.cookie },
        });
        return (await response.json()) as { lanCfg: string | null; hlaeLanConsole: string[] | null };
      };
      const { lanCfg, hlaeLanConsole } = await setup();
      expect(lanCfg).not.toBeNull();
      const [url, start] = hlaeLanConsole ?? [];
      expect(start).toBe('mirv_pgl start');
      const address = new URL(/^mirv_pgl url "(.+)"$/.exec(url ?? '')?.[1] ?? 'ws://none');
      expect(address.port).toBe(String(server.port));
      expect(address.pathname).toBe(HLAE_PATH);
      expect(address.searchParams.get('token')).toBe(token);
      // The line's address, typed on a PC of the network, opens the link.
      const lan = await net.openWs('lan', {
        port: server.port,
        path: `${address.pathname}${address.search}`,
      });
      expect(lan.outcome).toBe('open');
      await vi.waitFor(() => expect(server.service.game.status().hlae.source).toBe(net.lan.address));
      lan.close();
      // The token is never in the status, which read-only pages receive.
      expect(JSON.stringify(server.service.game.status())).not.toContain(token);
      // Local network mode off: no lines (the link would be refused).
      expect((await api.settings({ lanMode: false })).status).toBe(200);
      expect((await setup()).hlaeLanConsole).toBeNull();
    });
  },
);
