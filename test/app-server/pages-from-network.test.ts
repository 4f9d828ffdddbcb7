/**
 * The HUD and scene pages from another machine of the local network (OBS on a second PC), from a
 * real address in a network namespace: with LAN mode on and `?view=<view key>` (or the access token)
 * the pages load and their WebSocket follows the state; the view key only reads, whatever `?role=`
 * the connection names (issue 22), while the access token runs commands; without a credential, or
 * without LAN mode, or from outside the local network, they are refused. A real Chromium then loads
 * /hud by this machine's LAN address (the server sees a LAN peer) with the view key the operator
 * app lists, and without it.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, command, get } from '../helpers/build.ts';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.ts';
import { createTestNetwork, netnsSkipReason, type TestNetwork } from '../helpers/netns.ts';

const skipReason = netnsSkipReason();

describe.skipIf(skipReason)(
  `the HUD pages from the network${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let net: TestNetwork;
    beforeAll(async () => {
      net = await createTestNetwork();
    });
    afterAll(async () => {
      await net?.close();
    });

    it('with LAN mode and the token: /hud and the scenes load, the overlay reports and follows; without the token: 401', async () => {
      const server = await build({ overrides: { lanMode: true } });
      const port = server.applicationPort;
      const token = server.service.secrets.token();

      for (const path of ['/hud', '/scenes/window', '/scenes/versus', '/scenes/mapRecap']) {
        const withToken = await net.http('lan', { port, path: `${path}?token=${token}` });
        expect(withToken.status, path).toBe(200);
        expect(withToken.body).toContain('<div id="app">');
        const without = await net.http('lan', { port, path });
        expect(without.status, path).toBe(401);
        expect(without.json).toMatchObject({ ok: false, error: 'unauthorized' });
        const wrong = await net.http('lan', { port, path: `${path}?token=not-the-token` });
        expect(wrong.status, path).toBe(401);
      }
      // The page's own scripts and styles load in LAN mode like the operator app's.
      const html = (await net.http('lan', { port, path: `/hud?token=${token}` })).body;
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      expect((await net.http('lan', { port, path: script })).status).toBe(200);

      // The WebSocket as the page opens it (client.ts passes the page's token on).
      const refused = await net.openWs('lan', { port, path: '/ws?role=overlay' });
      expect(refused.outcome).toBe('refused');
      expect(refused.refusal?.status).toBe(401);
      const overlay = await net.openWs('lan', { port, path: `/ws?role=overlay&token=${token}` });
      await overlay.settled(5000);
      expect(overlay.outcome).toBe('open');
      expect(await overlay.nextMessage()).toMatchObject({ type: 'hello' });
      // A page gets the game data's whole view right after hello (docs/websocket.md).
      expect(await overlay.nextMessage()).toMatchObject({ type: 'game', full: true });
      overlay.send({
        type: 'report',
        id: 'open',
        report: { opened: true, presets: [{ id: 'midnight', name: 'Midnight' }] },
      });
      expect(await overlay.nextMessage()).toMatchObject({ type: 'event', event: 'hud.state' });
      await overlay.waitUntil(
        () => overlay.messages.some((m) => (m.data as { id?: string }).id === 'open'),
        2000,
      );
      expect((await get(server, '/api/presets')).body.presets).toEqual([
        { id: 'midnight', name: 'Midnight' },
      ]);
      expect((await get(server, '/api/state')).body.state.hudWindowOpen).toBe(true);
      // A page only reads: its token does not make it a control surface.
      overlay.send({ type: 'trigger', id: 't', action: 'show_scoreboard' });
      await overlay.waitUntil(
        () => overlay.messages.some((m) => (m.data as { id?: string }).id === 't'),
        2000,
      );
      const answer = overlay.messages.find((m) => (m.data as { id?: string }).id === 't')?.data;
      expect(answer).toMatchObject({ type: 'result', ok: false, status: 403, error: 'forbidden' });
      // It follows the state: a command from this machine reaches it.
      expect((await command(server, 'show_veto')).status).toBe(200);
      await overlay.waitUntil(
        () =>
          overlay.messages.some(
            (m) => (m.data as { data?: { vetoVisible?: boolean } }).data?.vetoVisible === true,
          ),
        2000,
      );
      await overlay.close();
    });

    it('with the view key: the pages and reads load, the WebSocket follows the state but runs nothing whatever role it names; the access token runs commands', async () => {
      const server = await build({ overrides: { lanMode: true } });
      const port = server.applicationPort;
      const viewKey = server.service.secrets.viewKey();
      const token = server.service.secrets.token();

      for (const path of ['/hud', '/scenes/window', '/scenes/versus', '/api/state']) {
        expect((await net.http('lan', { port, path: `${path}?view=${viewKey}` })).status, path).toBe(200);
        const wrong = await net.http('lan', { port, path: `${path}?view=not-the-key` });
        expect(wrong.status, path).toBe(401);
        expect(wrong.json).toMatchObject({ ok: false, error: 'unauthorized' });
      }
      // The view key is no access token: the automation server refuses it.
      const asToken = await net.http('lan', {
        port: server.port,
        method: 'POST',
        path: '/api/actions/show_scoreboard',
        headers: { 'x-service-token': viewKey },
      });
      expect(asToken.status).toBe(401);

      const results = async (session: Awaited<ReturnType<TestNetwork['openWs']>>, id: string) => {
        await session.waitUntil(
          () => session.messages.some((m) => (m.data as { id?: string }).id === id),
          2000,
        );
        return session.messages.find((m) => (m.data as { id?: string }).id === id)?.data;
      };
      const viewers = [];
      for (const role of ['', '&role=overlay', '&role=operator', '&role=scene']) {
        const viewer = await net.openWs('lan', { port, path: `/ws?view=${viewKey}${role}` });
        await viewer.settled(5000);
        expect(viewer.outcome, role).toBe('open');
        expect(await viewer.nextMessage()).toMatchObject({ type: 'hello' });
        viewer.send({ type: 'trigger', id: 'cmd', action: 'show_scoreboard' });
        expect(await results(viewer, 'cmd'), role).toMatchObject({
          type: 'result',
          ok: false,
          status: 403,
          error: 'forbidden',
        });
        viewers.push(viewer);
      }
      expect((await get(server, '/api/state')).body.state.scoreboardVisible).toBeUndefined();
      // The view key never writes, not even the overlay's report (issue 37): the token's overlay reports.
      const [, overlay] = viewers;
      if (!overlay) throw new Error('the overlay viewer did not open');
      overlay.send({ type: 'report', id: 'open', report: { opened: true } });
      expect(await results(overlay, 'open')).toMatchObject({ type: 'result', ok: false, status: 403 });
      expect((await get(server, '/api/state')).body.state.hudWindowOpen).toBe(false);
      // Every viewer follows the state: a command from this machine reaches them.
      expect((await command(server, 'show_veto')).status).toBe(200);
      for (const viewer of viewers) {
        await viewer.waitUntil(
          () =>
            viewer.messages.some(
              (m) => (m.data as { data?: { vetoVisible?: boolean } }).data?.vetoVisible === true,
            ),
          2000,
        );
      }

      // With the access token (and no role that narrows it) the same device runs commands.
      const deck = await net.openWs('lan', { port, path: `/ws?token=${token}` });
      await deck.settled(5000);
      expect(await deck.nextMessage()).toMatchObject({ type: 'hello' });
      deck.send({ type: 'trigger', id: 'cmd', action: 'show_scoreboard' });
      expect(await results(deck, 'cmd')).toMatchObject({ type: 'result', ok: true });
      expect((await get(server, '/api/state')).body.state.scoreboardVisible).toBe(true);

      // A new access token closes the token holder (4401), not the pages of the view key.
      await server.service.secrets.regenerateToken();
      expect((await deck.waitForClose(2000)).code).toBe(4401);
      for (const viewer of viewers) expect(viewer.isOpen).toBe(true);
      const deck2 = await net.openWs('lan6', { port, path: `/ws?token=${server.service.secrets.token()}` });
      await deck2.settled(5000);
      expect(await deck2.nextMessage()).toMatchObject({ type: 'hello' });
      // A new view key closes the old one's connections (4401) and refuses its addresses; the token
      // holder stays connected.
      await server.service.secrets.regenerateViewKey();
      for (const viewer of viewers) expect((await viewer.waitForClose(2000)).code).toBe(4401);
      // (From another host: this one spent its 20 requests of this second.)
      expect((await net.http('lan6', { port, path: `/hud?view=${viewKey}` })).status).toBe(401);
      const next = server.service.secrets.viewKey();
      expect((await net.http('lan6', { port, path: `/hud?view=${next}` })).status).toBe(200);
      expect(deck2.isOpen).toBe(true);
      await deck2.close();
    });

    it('LAN mode off: the pages are not reachable; from outside the local network: 403 even with the token', async () => {
      const off = await build();
      const unreachable = await net.http('lan', {
        port: off.applicationPort,
        path: `/hud?token=${off.service.secrets.token()}`,
      });
      expect(unreachable.status).toBeNull();
      expect(unreachable.error?.code).toBe('ECONNREFUSED');

      const lan = await build({ overrides: { lanMode: true } });
      const outside = await net.http('outside', {
        port: lan.applicationPort,
        path: `/hud?token=${lan.service.secrets.token()}`,
      });
      expect(outside.status).toBe(403);
      expect(outside.json).toMatchObject({ ok: false, error: 'forbidden' });
    });

    describe.skipIf(!chromiumAvailable)('in Chromium, by the LAN address', () => {
      let browser: Browser;
      beforeAll(async () => {
        browser = await launchChromium();
      });
      afterAll(async () => {
        await browser?.close();
      });

      it('the operator app lists the network address of /hud with the view key (not the token), and that address works', async () => {
        const server = await build({ overrides: { lanMode: true } });
        const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
        try {
          const operator = await context.newPage();
          await operator.goto(server.signInUrl());
          await operator.getByRole('tab', { name: 'HUD' }).click();
          const expected = `http://${net.lan.serverAddress}:${server.applicationPort}/hud?view=${server.service.secrets.viewKey()}`;
          const listed = operator.locator('[data-lan-source="/hud"] code', { hasText: expected });
          await listed.waitFor();
          const overlay = await context.newPage();
          await overlay.goto((await listed.textContent()) ?? '');
          await overlay.locator('[data-page="hud"][data-ready="true"]').waitFor();
          expect(await operator.locator('[data-card="sources"]').textContent()).not.toContain(
            server.service.secrets.token(),
          );
          // Regenerate view key: the source on the other machine is disconnected, the card lists the
          // new key's address.
          const old = server.service.secrets.viewKey();
          await operator.locator('[data-action="regenerate-view-key"]').click();
          await operator.getByRole('button', { name: 'Regenerate and disconnect' }).click();
          await expect.poll(() => server.service.secrets.viewKey()).not.toBe(old);
          const renewed = `http://${net.lan.serverAddress}:${server.applicationPort}/hud?view=${server.service.secrets.viewKey()}`;
          await operator.locator('[data-lan-source="/hud"] code', { hasText: renewed }).waitFor();
        } finally {
          await context.close();
        }
      });

      it('shows the overlay with the view key and follows commands, reporting nothing; refuses it without', async () => {
        const server = await build({ overrides: { lanMode: true } });
        const url = net.lan.url(server.applicationPort, '/hud');
        const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
        try {
          const page = await context.newPage();
          const refused = await page.goto(url);
          expect(refused?.status()).toBe(401);
          // The view key's overlay does not report that it opened: the operator opens the window.
          expect((await command(server, 'show_overlay')).status).toBe(200);
          await page.goto(`${url}?view=${server.service.secrets.viewKey()}`);
          await page.locator('[data-page="hud"][data-ready="true"][data-overlay-visible="true"]').waitFor();
          expect((await command(server, 'show_scoreboard')).status).toBe(200);
          await page.locator('[data-panel="scoreboard"][data-visible="true"]').waitFor({ state: 'attached' });
          // Its report (presets, panel flags) was refused: the view key reads, never writes.
          expect((await get(server, '/api/presets')).body.presets).toEqual([]);
          expect((await get(server, '/api/state')).body.state.scoreboardVisible).toBe(true);
          expect(server.service.access.recent.list().some((r) => r.address === net.lan.serverAddress)).toBe(
            true,
          );
        } finally {
          await context.close();
        }
      });
    });
  },
);
