import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';

/** Debian's Chromium, as the tests use it; the parts that need it are skipped (with a row) without it. */
export const CHROMIUM = '/usr/bin/chromium';
export const chromiumMissing = (): string | null =>
  existsSync(CHROMIUM) ? null : `${CHROMIUM} not found (apt-get install chromium)`;

/** A headless Chromium kept off the network, for the parts that time a real page. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
    ],
  });
}
