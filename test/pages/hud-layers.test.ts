/**
 * A panel in motion is drawn as one picture (issue 23). While a panel slides or fades, Chromium
 * composites it as a layer of its own; a panel cut into several layers costs the compositor more in
 * every frame of the motion, and its layers are made and rastered afresh at each toggle
 * (docs/performance.md, "A panel in motion is one layer"). Chromium cuts a panel so when part of its
 * text sits on an opaque background (kept for subpixel text) and other text under a clip
 * (overflow: hidden, for the names' ellipsis); the pages' text badges are therefore never quite
 * opaque (common/broadcast.css, --badge-alpha).
 *
 * Measured in real Chromium, as OBS runs it (software compositing, subpixel text preferred): the
 * page's clock slowed a hundredfold (DevTools' Animation.setPlaybackRate) so that every motion is
 * still running when the compositor's layers are read (DevTools' LayerTree domain). Every layer
 * inside a moving panel must have a reason of its own (its own motion, will-change); none may be
 * there because it overlaps (Chromium's "Overlap": a split).
 */
import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { build, ok } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile } from '../helpers/chromium.ts';
import type { Frame } from '../helpers/gsi.ts';
import { fixture, postAccepted, ROUND_SEQUENCE, toCs2 } from '../helpers/gsi.ts';
import { seriesInProgress, settled } from '../helpers/hud.ts';
import { postLiveGame } from '../helpers/live-game.ts';

interface Described {
  reasons: string[];
  element: string;
  panel: string | null;
}

/** A layer in motion (a panel sliding or fading, a bar moving). */
const inMotion = (layer: Described) => layer.reasons.some((reason) => reason.startsWith('Active'));

interface Layer {
  layerId: string;
  backendNodeId?: number;
  drawsContent: boolean;
}

/** The page's composited layers, as the compositor has them after its last update. */
class Layers {
  #latest: Layer[] = [];
  #waiters: Array<() => void> = [];

  private constructor(private readonly cdp: CDPSession) {
    cdp.on('LayerTree.layerTreeDidChange', (event: { layers?: Layer[] }) => {
      if (!event.layers) return;
      this.#latest = event.layers;
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  static async of(page: Page): Promise<Layers> {
    const cdp = await page.context().newCDPSession(page);
    const layers = new Layers(cdp);
    await cdp.send('DOM.enable');
    await cdp.send('DOM.getDocument', { depth: -1 });
    await cdp.send('LayerTree.enable');
    // A hundred times slower: a 300 ms fade runs for 30 s, time enough to read the layers.
    await cdp.send('Animation.enable');
    await cdp.send('Animation.setPlaybackRate', { playbackRate: 0.01 });
    return layers;
  }

  /**
   * Each drawing layer: why Chromium made it, and the element and panel it starts at; null when the
   * compositor changed its layers while they were read.
   */
  async described(): Promise<Described[] | null> {
    const out = [];
    for (const layer of this.#latest.filter((each) => each.drawsContent && each.backendNodeId)) {
      const read = await this.#read(layer).catch(() => null);
      if (read === null) return null;
      out.push(read);
    }
    return out;
  }

  /** One layer: its reasons, and the element and panel it starts at (rejects if it is gone). */
  async #read(layer: Layer): Promise<Described> {
    const answer = await this.cdp.send('LayerTree.compositingReasons', { layerId: layer.layerId });
    const { compositingReasonIds = [] } = answer as { compositingReasonIds?: string[] };
    const { object } = await this.cdp.send('DOM.resolveNode', { backendNodeId: layer.backendNodeId });
    const { result } = await this.cdp.send('Runtime.callFunctionOn', {
      objectId: object.objectId as string,
      returnByValue: true,
      functionDeclaration: `function () {
        const element = this.nodeType === 1 ? this : this.parentElement;
        if (!element) return { element: '#document', panel: null };
        const cls = typeof element.className === 'string' ? element.className.split(' ')[0] : '';
        const panel = element.closest('[data-panel]');
        return { element: element.tagName.toLowerCase() + (cls ? '.' + cls : ''), panel: panel ? panel.dataset.panel : null };
      }`,
    });
    return { reasons: compositingReasonIds, ...(result.value as Omit<Described, 'reasons'>) };
  }

  /** Waits until the compositor's layers show `count` panels in motion. */
  async moving(count: number): Promise<Described[]> {
    for (;;) {
      const changed = new Promise<void>((wake) => this.#waiters.push(wake));
      const layers = await this.described();
      if (layers && layers.filter(inMotion).length >= count) return layers;
      await changed;
    }
  }
}

/** The layers a split made inside these panels: "Overlap", with no reason of their own. */
const splits = (layers: Described[], panels: string[]) =>
  layers
    .filter((layer) => panels.includes(layer.panel ?? '') && layer.reasons.includes('Overlap'))
    .map((layer) => `${layer.panel}: ${layer.element} (${layer.reasons.join(', ')})`);

describe.skipIf(!chromiumAvailable)('the HUD panels in motion, in Chromium', () => {
  const chromium = chromiumPerFile();

  /** A server and its overlay at 1920x1080, a series in progress (with the roster unless told not). */
  async function overlay({ roster = true } = {}) {
    const server = await build();
    const page = await (await chromium.newContext({ width: 1920, height: 1080 })).newPage();
    await page.goto(`${server.applicationUrl}/hud`);
    await page.locator('[data-page="hud"][data-ready="true"]').waitFor();
    await seriesInProgress(server, { roster });
    return { server, page };
  }

  async function liveOverlay() {
    const { server, page } = await overlay();
    await postLiveGame(server);
    return { server, page };
  }

  it('the scoreboard and the stats panel slide in each as one layer', async () => {
    const { server, page } = await liveOverlay();
    await settled(page);
    const layers = await Layers.of(page);
    await ok(server, 'show_scoreboard');
    await ok(server, 'show_stats');
    const coming = await layers.moving(2);
    expect(coming.filter((layer) => layer.panel === 'scoreboard' || layer.panel === 'stats').length).toBe(2);
    expect(splits(coming, ['scoreboard', 'stats'])).toEqual([]);
  });

  it("the economy slides in at freeze time as the round's banner goes, each as one layer", async () => {
    const { server, page } = await overlay({ roster: false });
    const frames = ((await fixture(ROUND_SEQUENCE)) as Frame[]).map((frame) => toCs2(frame));
    const [roundOver, freezetime] = [frames[8], frames[10]];
    if (!roundOver || !freezetime) throw new Error('the round sequence has no frames 8 and 10');
    await postAccepted(server, roundOver);
    await page.locator('[data-panel="round-banner"][data-visible="true"]').waitFor({ state: 'attached' });
    await settled(page);
    const layers = await Layers.of(page);
    // The banner goes, the economy comes.
    await postAccepted(server, freezetime);
    const economy = await layers.moving(2);
    expect(economy.some((layer) => layer.panel === 'economy')).toBe(true);
    expect(splits(economy, ['economy', 'round-banner'])).toEqual([]);
  });

  it('hiding the overlay fades every panel on air, each as one layer', async () => {
    const { server, page } = await liveOverlay();
    await ok(server, 'show_scoreboard');
    await ok(server, 'show_stats');
    await settled(page);
    const layers = await Layers.of(page);
    await ok(server, 'hide_overlay');
    // The top bar, the radar, the teams' boxes, the observed player, the scoreboard, the stats.
    const going = await layers.moving(6);
    const fading = going.filter((layer) => layer.reasons.includes('ActiveOpacityAnimation'));
    expect(new Set(fading.map((layer) => layer.panel))).toEqual(
      new Set(['topbar', 'radar', 'players', 'observed', 'scoreboard', 'stats']),
    );
    expect(splits(going, ['topbar', 'radar', 'players', 'observed', 'scoreboard', 'stats'])).toEqual([]);
  });
});
