/**
 * The operator app from another device (a tablet on the desk), from real addresses in network
 * namespaces: with LAN mode on and the sign-in key it is the main window; without LAN mode, or from
 * outside the local network, never.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, command } from '../helpers/build.ts';
import { createTestNetwork, netnsSkipReason, type TestNetwork } from '../helpers/netns.ts';

const skipReason = netnsSkipReason();

describe.skipIf(skipReason)(
  `the operator app from the network${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let net: TestNetwork;
    beforeAll(async () => {
      net = await createTestNetwork();
    });
    afterAll(async () => {
      await net?.close();
    });

    it('a tablet signs in with the key in LAN mode and is the main window; its page closes when the key is regenerated', async () => {
      const server = await build({ headless: false, overrides: { lanMode: true } });
      const port = server.appPort;
      const key = server.service.signInKey();
      const host = `${net.lan.serverAddress}:${port}`;

      const page = await net.http('lan', { port, path: '/' });
      expect(page.status).toBe(200);
      expect(page.body).toContain('<div id="app">');
      expect((await net.http('lan', { port, path: '/api/panel/token' })).status).toBe(401);

      const signIn = await net.http('lan', {
        port,
        method: 'POST',
        path: '/auth/sign-in',
        headers: { origin: `http://${host}` },
        body: { key },
      });
      expect(signIn.status).toBe(200);
      const cookie = String(signIn.headers['set-cookie']).split(';')[0] ?? '';
      expect((await net.http('lan', { port, path: '/auth/status', headers: { cookie } })).json).toEqual({
        ok: true,
        signedIn: true,
      });

      const tablet = await net.openWs('lan', {
        port,
        path: '/ws?role=operator',
        headers: { cookie, origin: `http://${host}` },
      });
      await tablet.settled(5000);
      expect(tablet.outcome).toBe('open');
      expect(await tablet.nextMessage()).toMatchObject({ type: 'hello' });
      // The hud.state event that opens the main window reaches the tablet too.
    expect(await tablet.waitUntil(() => server.service.hub.hudState().mainWindowOpen, 2000)).toBe(true);
      expect((await command(server, 'veto_status')).status).toBe(200);

      await server.service.regenerateSignInKey();
      await tablet.waitUntil(() => tablet.closeInfo !== null, 2000);
      expect(tablet.closeInfo).toMatchObject({ code: 4401, by: 'server' });
    });

    it('without LAN mode, or from outside the local network, the operator app is refused', async () => {
      const server = await build({ headless: false });
      const key = server.service.signInKey();
      // LAN mode off: the application server listens on loopback only.
      const off = await net.http('lan', { port: server.appPort, path: '/' });
      expect(off.status).toBeNull();
      expect(off.error?.code).toBe('ECONNREFUSED');

      const lan = await build({ headless: false, overrides: { lanMode: true } });
      const outside = await net.http('outside', {
        port: lan.appPort,
        method: 'POST',
        path: '/auth/sign-in',
        body: { key: lan.service.signInKey() },
      });
      expect(outside.status).toBe(403);
      expect(outside.json).toMatchObject({ ok: false, error: 'forbidden' });
      });
  },
);
