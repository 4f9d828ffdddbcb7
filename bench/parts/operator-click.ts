import { chromiumMissing, launchChromium } from '../lib/chromium.ts';
import type { PartContext } from '../lib/config.ts';
import { startServerProcess } from '../lib/server-process.ts';
import { ms, summarizeNs } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';
import { WsProbe } from '../lib/ws-probe.ts';

const PART = 'Operator click → automation client';

/**
 * A real Chromium signed in to the operator app (the Live page) clicks the Scoreboard switch with the
 * mouse; the time runs from just before the click is sent to the browser until a WebSocket client
 * of the automation server (port 44555's role, in this process) has parsed the event of the
 * revision the click made. The next click waits until the page shows that revision, so every
 * click is a fresh command from an idle page.
 */
export async function operatorClick(context: PartContext): Promise<Row[]> {
  const missing = chromiumMissing();
  if (missing) return [{ part: PART, figure: 'skipped', value: missing }];
  const hud = await startServerProcess({
    runtime: context.runtime,
    kind: 'hud',
    nodeOptions: context.nodeOptions('operator-click'),
  });
  const browser = await launchChromium();
  try {
    const signIn = hud.signInUrl();
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    // The Live page, the first view after sign-in, holds the on-air switches.
    await page.goto(signIn);
    const scoreboard = page.locator('[data-panel-switch="scoreboard"]');
    await scoreboard.waitFor();
    const box = await scoreboard.boundingBox();
    if (!box) throw new Error('the Scoreboard switch has no box on screen');
    const probe = await WsProbe.connect(hud.wsUrl);

    const clicks = context.config.quick ? 30 : 500;
    const warmup = 10;
    const samples: bigint[] = [];
    let revision = probe.revision;
    for (let i = 0; i < warmup + clicks; i++) {
      const sent = process.hrtime.bigint();
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      revision += 1;
      const arrived = await probe.arrival(revision, 10_000);
      if (i >= warmup) samples.push(arrived - sent);
      await page.locator('[data-revision]', { hasText: String(revision) }).waitFor();
    }
    probe.close();
    const lost = probe.check.missingUpTo(revision) + probe.check.outOfOrder;
    const summary = summarizeNs(samples);
    context.log(`  ${clicks} clicks: p50 ${ms(summary.p50)} p99 ${ms(summary.p99)} max ${ms(summary.max)}`);
    return [
      {
        part: PART,
        figure: `Chromium mouse click on Scoreboard → event at an automation WebSocket client, ${clicks} clicks`,
        value: `p50 ${ms(summary.p50)}, p99 ${ms(summary.p99)}, max ${ms(summary.max)}`,
      },
      { part: PART, figure: 'events lost / out of order', value: String(lost), target: '0', met: lost === 0 },
    ];
  } finally {
    await browser.close();
    await hud.stop();
  }
}
