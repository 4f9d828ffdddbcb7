/**
 * The operator app from another device (a tablet on the desk), from real addresses in network
 * namespaces: with LAN mode on and the sign-in key it is the main window; without LAN mode, or from
 * outside the local network, never.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, command } from '../helpers/build.ts';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.ts';
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
      const port = server.applicationPort;
      const key = server.service.secrets.signInKey();
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

      await server.service.secrets.regenerateSignInKey();
      await tablet.waitUntil(() => tablet.closeInfo !== null, 2000);
      expect(tablet.closeInfo).toMatchObject({ code: 4401, by: 'server' });
    });

    it('without LAN mode, or from outside the local network, the operator app is refused', async () => {
      const server = await build({ headless: false });
      // LAN mode off: the application server listens on loopback only.
      const off = await net.http('lan', { port: server.applicationPort, path: '/' });
      expect(off.status).toBeNull();
      expect(off.error?.code).toBe('ECONNREFUSED');

      const lan = await build({ headless: false, overrides: { lanMode: true } });
      const outside = await net.http('outside', {
        port: lan.applicationPort,
        method: 'POST',
        path: '/auth/sign-in',
        body: { key: lan.service.secrets.signInKey() },
      });
      expect(outside.status).toBe(403);
      expect(outside.json).toMatchObject({ ok: false, error: 'forbidden' });
    });

    describe.skipIf(!chromiumAvailable)('driven from the operator app in Chromium', () => {
      let browser: Browser;
      beforeAll(async () => {
        browser = await launchChromium();
      });
      afterAll(async () => {
        await browser?.close();
      });

      it('LAN mode switched on in the app lets a Stream Deck on the network in; Regenerate drops it', async () => {
        const server = await build({ headless: false });
        const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
        await page.goto(server.signInUrl());
        await page.getByRole('tab', { name: /Local automation/ }).click();
        const token = server.service.secrets.token();

        // LAN mode off: the automation server listens on loopback only.
        const bearer = (value: string) => ({ authorization: `Bearer ${value}` });
        const before = await net.http('lan', {
          port: server.port,
          path: '/api/state',
          headers: bearer(token),
        });
        expect(before.error?.code).toBe('ECONNREFUSED');

        await page.getByRole('switch', { name: 'Allow connections from the local network' }).click();
        await page.locator('[data-status="lan"]', { hasText: 'On' }).waitFor();
        const deck = await net.openWs('lan', { port: server.port, path: `/?token=${token}` });
        await deck.settled(5000);
        expect(deck.outcome).toBe('open');
        expect(await deck.nextMessage()).toMatchObject({ type: 'hello' });

        await page.getByRole('button', { name: 'Regenerate' }).click();
        await page
          .getByRole('dialog', { name: 'Regenerate the access token?' })
          .getByRole('button', { name: 'Regenerate and disconnect' })
          .click();
        await deck.waitUntil(() => deck.closeInfo !== null, 2000);
        expect(deck.closeInfo).toMatchObject({ code: 4401, by: 'server' });
        const old = await net.http('lan', { port: server.port, path: '/api/state', headers: bearer(token) });
        expect(old.status).toBe(401);
        const fresh = await net.http('lan', {
          port: server.port,
          path: '/api/state',
          headers: bearer(server.service.secrets.token()),
        });
        expect(fresh.status).toBe(200);
        await page.close();
      });
    });
  },
);
