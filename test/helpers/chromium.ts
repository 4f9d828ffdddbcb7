import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';

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
