import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, get } from '../helpers/build.ts';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.ts';

/** A web page that tries everything a malicious page on this machine could try against the service. */
const attackPage = (service: string) => `<!doctype html><script>
window.outcome = (async () => {
  const results = {};
  const attempt = async (name, run) => { try { results[name] = await run(); } catch (error) { results[name] = 'blocked: ' + error.message; } };
  await attempt('post', () => fetch('${service}/api/actions/toggle_scoreboard', { method: 'POST' }).then((r) => r.status));
  await attempt('postNoCors', () => fetch('${service}/api/actions/show_sen_scene', { method: 'POST', mode: 'no-cors',
    headers: { 'content-type': 'text/plain' }, body: '{"scene":"versus"}' }).then((r) => r.type));
  await attempt('form', () => fetch('${service}/api/actions/show_veto', { method: 'POST', mode: 'no-cors',
    body: new URLSearchParams({ a: '1' }) }).then((r) => r.type));
  await attempt('readState', () => fetch('${service}/api/state').then((r) => r.status));
  await attempt('postJson', () => fetch('${service}/api/actions/toggle_scoreboard', { method: 'POST',
    headers: { 'content-type': 'application/json' }, body: '{}' }).then((r) => r.status));
  await attempt('readHealth', () => fetch('${service}/health').then((r) => r.json()).then((b) => b.service));
  await attempt('readPresets', () => fetch('${service}/api/presets').then((r) => r.json()).then((b) => b.ok));
  await attempt('readActions', () => fetch('${service}/api/actions').then((r) => r.json()).then((b) => b.actions.length > 0));
  results.websocket = await new Promise((resolve) => {
    const socket = new WebSocket('${service.replace('http', 'ws')}/');
    socket.onopen = () => resolve('open');
    socket.onmessage = (m) => resolve('message: ' + m.data);
    socket.onerror = () => resolve('refused');
  });
  return results;
})();
</script>`;

describe.skipIf(!chromiumAvailable)('a web page in a real browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('can read the three public GETs, but cannot send commands, read the state or open the WebSocket (Origin rule)', async () => {
    const server = await build();
    const pages = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end(attackPage(server.httpUrl));
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(pages.address() as AddressInfo).port}/`);
      const outcome = await page.evaluate(
        () => (globalThis as unknown as { outcome: Promise<Record<string, unknown>> }).outcome,
      );
      // The browser sends Origin: each request is refused by the service (the page cannot even read
      // the 403 of a cross-origin request without CORS headers, so fetch fails for it).
      expect(outcome.post).toMatch(/^blocked|^403$/);
      // A JSON POST needs a preflight, which the service refuses: the POST is never sent.
      expect(outcome.postJson).toMatch(/^blocked/);
      expect(outcome.readState).toMatch(/^blocked|^403$/);
      // The public reads carry Access-Control-Allow-Origin: *, so the page reads them.
      expect(outcome.readHealth).toBe('hud-automation');
      expect(outcome.readPresets).toBe(true);
      expect(outcome.readActions).toBe(true);
      expect(outcome.websocket).toBe('refused');
      // What matters: nothing changed.
      const { state } = (await get(server, '/api/state')).body;
      expect(state.revision).toBe(0);
      expect(state.scoreboardVisible).toBeUndefined();
      expect(state.vetoVisible).toBeUndefined();
      expect(state.senScene).toBeNull();
      const refusals = server.service.access.recent.list().filter((r) => r.status === 403);
      expect(refusals.length).toBeGreaterThanOrEqual(4);
    } finally {
      pages.close();
    }
  });
});
