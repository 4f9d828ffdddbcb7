import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page, ViewportSize } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);

if (!chromiumAvailable) {
  const reason = `Chromium tests SKIPPED: ${CHROMIUM} not found. Install it with: apt-get install -y --no-install-recommends chromium`;
  // CI sets this so a machine without Chromium fails instead of skipping.
  if (process.env.HUD_REQUIRE_CHROMIUM === '1') throw new Error(reason.replace('SKIPPED', 'REQUIRED'));
  console.warn(reason);
}

/** Debian's Chromium, headless, kept off the network (this machine has none). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Where the pages' tests write their screenshots (looked at by a person, not compared). */
export const SCREENSHOTS = fileURLToPath(new URL('../.tmp/screenshots/', import.meta.url));

/**
 * One Chromium for the whole test file (launched before its tests, closed after them) and a fresh
 * browser context per page, closed after each test. Call it inside the file's describe.
 */
export function chromiumPerFile(): {
  newContext(viewport: ViewportSize): Promise<BrowserContext>;
  /** The HUD overlay at /hud of this server, once it is ready; a wait that fails says so within 8 s. */
  hud(server: { applicationUrl: string }, viewport: ViewportSize): Promise<Page>;
  /**
   * The operator app signed in through the server's sign-in address, once it is live (its hello
   * received), on the view of tab `view` when one is named (the Live page comes first otherwise).
   */
  operator(server: { signInUrl(): string }, viewport: ViewportSize, view?: string): Promise<Page>;
} {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
    await mkdir(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close().catch(() => {});
  });
  const newContext = async (viewport: ViewportSize) => {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    return context;
  };
  return {
    newContext,
    async hud(server, viewport) {
      const context = await newContext(viewport);
      context.setDefaultTimeout(8_000);
      const page = await context.newPage();
      await page.goto(`${server.applicationUrl}/hud`);
      await page.locator('[data-page="hud"][data-ready="true"]').waitFor();
      return page;
    },
    async operator(server, viewport, view) {
      const page = await (await newContext(viewport)).newPage();
      await page.goto(server.signInUrl());
      await page.locator('[data-status="connection"][data-tone="ok"]').waitFor();
      if (view) {
        await page.locator(`[data-tab="${view}"]`).click();
        await page.locator(`[data-view="${view}"]`).waitFor();
      }
      return page;
    },
  };
}
