/**
 * Integrations > Game in real Chromium against a real server: the "receiving" indicator goes on with
 * a replayed frame and off when frames stop, and says what is wrong (a wrong auth token, a player's
 * view); the swap button changes the sides.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { lanAddress } from '../../src/game/gsi-config.ts';
import type { RunningServer } from '../../src/server.ts';
import { build } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { FAZE_NAVI, fixture, postFrame, toCs2, withToken } from '../helpers/gsi.ts';
import { Bytes, connectPgl, PglWriter, PLAYER_DEATH, player } from '../helpers/hlae-stand-in.ts';
import { panelApi } from '../helpers/hud.ts';

describe.skipIf(!chromiumAvailable)('Integrations > Game in Chromium', () => {
  const chromium = chromiumPerFile();

  const gameView = (server: RunningServer, viewport = { width: 1920, height: 1080 }): Promise<Page> =>
    chromium.operator(server, viewport, 'game');

  it('the receiving indicator goes on with a frame, counts the time since it, and goes off when frames stop', async () => {
    const server = await build({ headless: false, gameReceivingTimeoutMs: 1_500 });
    const page = await gameView(server);
    const indicator = page.locator('[data-game-receiving]');
    await expect.poll(() => indicator.getAttribute('data-game-receiving')).toBe('no');
    await expect.poll(() => indicator.getAttribute('data-game-problem')).toBe('nothing_received');

    const frame = withToken(toCs2(await fixture(FAZE_NAVI)), server.service.game.token);
    expect((await postFrame(server.applicationPort, frame)).status).toBe(200);
    await page.locator('[data-game-receiving="yes"][data-game-problem="none"]').waitFor();
    const status = page.getByRole('status').filter({ hasText: 'Receiving from' });
    expect(await status.textContent()).toMatch(/^Receiving from 127\.0\.0\.1, last frame \d+\.\d s ago$/);
    // The players the game reports, the observed one marked.
    await page.locator('[data-card="game-players"] tr[data-slot="7"][data-observed="yes"]').waitFor();
    // The stats of toggle_stats: the observed player, until the operator picks one.
    expect(server.service.game.statsSlot()).toBe(7);
    await page.getByRole('button', { name: 'Stats of Twistzz' }).click();
    await expect.poll(() => server.service.game.statsSlot()).toBe(1);

    // No frame for 1.5 s (the test server's timeout): off, and the page says so.
    await page.locator('[data-game-receiving="no"][data-game-problem="stopped"]').waitFor();
    expect(await page.getByRole('status').first().textContent()).toBe('Not receiving game data');
    expect(server.service.hub.hudState().gameReceiving).toBe(false);
  });

  it("says what is wrong: a wrong auth token, a player's view; the swap button changes the sides", async () => {
    const server = await build({ headless: false });
    const page = await gameView(server);
    const frame = toCs2(await fixture(FAZE_NAVI));
    expect((await postFrame(server.applicationPort, withToken(frame, 'not-the-token'))).status).toBe(401);
    await page.locator('[data-game-problem="wrong_token"]').waitFor();
    await page.getByRole('alert').filter({ hasText: 'wrong auth token' }).waitFor();

    const { allplayers: _, ...own } = frame;
    expect((await postFrame(server.applicationPort, withToken(own, server.service.game.token))).status).toBe(
      200,
    );
    await page.locator('[data-game-problem="player_view"]').waitFor();
    await page.getByRole('alert').filter({ hasText: "a player's view" }).waitFor();

    await page.locator('[data-game-sides="CT-T"]').waitFor();
    // Swapping turns the scoreboard round on air: it asks first (issue 33).
    await page.getByRole('button', { name: 'Swap sides' }).click();
    await page
      .getByRole('dialog', { name: 'Swap the sides on air?' })
      .getByRole('button', { name: 'Swap on air' })
      .click();
    await page.locator('[data-game-sides="T-CT"]').waitFor();
  });

  it('marks the observed player where an operator sees it at a glance, and the mark follows the camera', async () => {
    const server = await build({ headless: false });
    const page = await gameView(server, { width: 1280, height: 800 });
    const frame = withToken(toCs2(await fixture(FAZE_NAVI)), server.service.game.token);
    expect((await postFrame(server.applicationPort, frame)).status).toBe(200);

    const players = page.locator('[data-card="game-players"]');
    const s1mple = players.locator('tr[data-slot="7"]');
    const twistzz = players.locator('tr[data-slot="1"]');
    await s1mple.and(page.locator('[data-observed="yes"]')).waitFor();
    // A word, not only a colour: one "Observed" mark, on the observed player's row.
    await s1mple.getByText('Observed', { exact: true }).waitFor();
    await expect(players.locator('[data-observed-mark]').count()).resolves.toBe(1);
    await expect(s1mple.getAttribute('aria-current')).resolves.toBe('true');
    const background = (row: typeof s1mple) =>
      row
        .locator('td')
        .first()
        .evaluate((cell) => cell.ownerDocument.defaultView?.getComputedStyle(cell).backgroundColor);
    expect(await background(s1mple)).not.toBe(await background(twistzz));
    await page.screenshot({ path: `${SCREENSHOTS}game-observed-1280x800.png`, fullPage: true });

    // The camera moves to Twistzz: the mark moves with it.
    const next = structuredClone(frame);
    next.player = { ...next.allplayers['76561198016255205'], steamid: '76561198016255205' };
    expect((await postFrame(server.applicationPort, next)).status).toBe(200);
    await twistzz.and(page.locator('[data-observed="yes"]')).waitFor();
    await twistzz.getByText('Observed', { exact: true }).waitFor();
    await expect(s1mple.getAttribute('data-observed')).resolves.toBe('no');
    await expect(players.locator('[data-observed-mark]').count()).resolves.toBe(1);
  });

  it("shows HLAE's link: the console lines with a copy button, then connected and the deaths it sent", async () => {
    const server = await build({ headless: false });
    const page = await gameView(server, { width: 1280, height: 800 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const card = page.locator('[data-card="game-hlae"]');
    await card.locator('[data-hlae-state="off"]').waitFor();
    const lines = [`mirv_pgl url "ws://127.0.0.1:${server.port}/hlae"`, 'mirv_pgl start'];
    expect(await card.locator('[data-hlae-console]').textContent()).toBe(lines.join('\n'));
    await card.getByRole('button', { name: 'Copy the console lines' }).click();
    await expect
      .poll(() => page.evaluate(() => (globalThis as any).navigator.clipboard.readText()))
      .toBe(lines.join('; '));

    const frame = withToken(toCs2(await fixture(FAZE_NAVI)), server.service.game.token);
    expect((await postFrame(server.applicationPort, frame)).status).toBe(200);
    const [victim, killer] = Object.keys(frame.allplayers) as [string, string];
    const link = await connectPgl(`${server.wsUrl}/hlae`);
    const writer = new PglWriter();
    link.send(writer.hello().done());
    await link.setUp();
    link.send(
      writer
        .event(new Bytes(), PLAYER_DEATH, {
          userid: player(2, victim),
          attacker: player(3, killer),
          assister: player(-1, null),
          weapon: 'awp',
          headshot: true,
        })
        .done(),
    );
    await card.locator('[data-hlae-state="live"][data-hlae-deaths="1"]').waitFor();
    expect(await card.getByRole('status').textContent()).toBe(
      'HLAE connected from 127.0.0.1: the killfeed is exact · 1 death taken',
    );
    await page.screenshot({ path: `${SCREENSHOTS}game-hlae-1280x800.png`, fullPage: true });

    link.send('not binary');
    await card.locator('[data-hlae-state="off"]').waitFor();
    await card.getByRole('alert').filter({ hasText: 'mirv_pgl sends binary messages' }).waitFor();
  });
  // A machine without a local-network address has no lines for another PC (the card says nothing of them).
  it.skipIf(lanAddress() === null)(
    "gives HLAE's lines for another PC in local network mode, with the access token, and says how to get them otherwise",
    async () => {
      const server = await build({ headless: false });
      const page = await gameView(server, { width: 1280, height: 800 });
      const card = page.locator('[data-card="game-hlae"]');
      await card.locator('[data-hlae-lan="off"]').waitFor();
      expect(await card.locator('[data-hlae-lan-console]').count()).toBe(0);
      // Local network mode on, the view opened again: the lines, the token in the link's address.
      expect((await (await panelApi(server)).settings({ lanMode: true })).status).toBe(200);
      await page.getByRole('tab', { name: 'Live' }).click();
      await page.getByRole('tab', { name: 'Game' }).click();
      const token = server.service.secrets.token();
      await expect
        .poll(() => card.locator('[data-hlae-lan-console]').textContent())
        .toBe(`mirv_pgl url "ws://${lanAddress()}:${server.port}/hlae?token=${token}"\nmirv_pgl start`);
      await card.getByRole('button', { name: 'Copy the console lines for another PC' }).waitFor();
      await page.screenshot({ path: `${SCREENSHOTS}game-hlae-lan-1280x800.png`, fullPage: true });
    },
  );
});
