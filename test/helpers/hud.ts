/** A series in progress for the broadcast pages' tests, and a wait for a still picture. */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { command } from './build.ts';
import { postFrame, withToken } from './gsi.ts';
import { BO3_ACTIVE_DUTY } from './vetoes.ts';

export const TEAMS = {
  teamA: { name: 'Natus Vincere' },
  teamB: { name: 'FaZe Clan' },
  boFormat: 'bo3',
} as const;

/** The roster by HUD slot (keys 1-9, 0), first team A's five, then team B's. */
export const ROSTER = [
  ['s1mple', 1],
  ['b1t', 2],
  ['jL', 3],
  ['Aleksib', 4],
  ['iM', 5],
  ['karrigan', 6],
  ['rain', 7],
  ['broky', 8],
  ['frozen', 9],
  ['ropz', 0],
] as const;

/** Teams, a bo3 veto, two map results and (unless told not) the roster: a series in progress. */
export async function seriesInProgress(server: RunningServer, { roster = true } = {}): Promise<void> {
  const ok = async (action: string, payload?: unknown) => {
    const answer = await command(server, action, payload);
    expect(answer.status, `${action}: ${JSON.stringify(answer.body)}`).toBe(200);
  };
  await ok('set_event_name', { name: 'IEM Cologne 2026 · Playoffs' });
  await ok('set_teams', TEAMS);
  await ok('veto_set', { ...TEAMS, steps: BO3_ACTIVE_DUTY });
  // A veto set whole waits to be revealed (docs/api.md): the crew has revealed it.
  await ok('veto_reveal', { mode: 'all' });
  await ok('set_map_result', { map: 1, scoreA: 13, scoreB: 9, finished: true });
  await ok('set_map_result', { map: 2, scoreA: 7, scoreB: 5 });
  if (!roster) return;
  // As CS2 posts it: observer_slot 0-9, where 0 is the player on key 1 (docs/game-data.md).
  const allplayers = Object.fromEntries(
    ROSTER.map(([name, slot], i) => [
      `7656119800000000${i}`,
      { name, observer_slot: (slot + 9) % 10, team: i < 5 ? 'CT' : 'T' },
    ]),
  );
  const gsi = await postFrame(server.applicationPort, withToken({ allplayers }, server.service.game.token));
  expect(gsi.status, JSON.stringify(gsi.body)).toBe(200);
}

/** Waits for the fonts and for every transition and animation to end: a still picture. */
export const settled = (page: Page) =>
  page.waitForFunction(() => {
    const doc = (
      globalThis as unknown as {
        document: { fonts: { status: string }; getAnimations(): Array<{ playState: string }> };
      }
    ).document;
    // Finished animations that hold their end (fill: both) are still listed: only running ones count.
    return doc.fonts.status === 'loaded' && doc.getAnimations().every((a) => a.playState !== 'running');
  });

/** The operator app's panel API with a session cookie, as the browser would call it. */
export async function panelApi(server: RunningServer) {
  const key = new URL(server.signInUrl()).searchParams.get('key') ?? '';
  const signIn = await fetch(`${server.applicationUrl}/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key }),
  });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${server.applicationUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  return {
    cookie,
    upload: async (image: Buffer) => post('/api/panel/media', { data: image.toString('base64') }),
    settings: (change: unknown) => post('/api/panel/settings', change),
  };
}

/**
 * Team logos for the screenshots: drawn in Chromium, uploaded like any image, and given to set_teams
 * as the upload's address, /media/<id>, which the pages load at once (an http(s) logo is shown once
 * the server has fetched it: test/app-server/team-logos.test.ts).
 */
export async function teamLogos(server: RunningServer, page: Page): Promise<void> {
  const { makeLogo } = await import('./media.ts');
  const api = await panelApi(server);
  const logo = async (text: string, colour: string) => {
    const image = await makeLogo(page, { text, colour, width: 256, height: 256, round: true });
    const answer = await api.upload(image);
    return answer.body.media.url as string;
  };
  const answer = await command(server, 'set_teams', {
    teamA: { ...TEAMS.teamA, logo: await logo('NAVI', '#f2c12e') },
    teamB: { ...TEAMS.teamB, logo: await logo('FaZe', '#d7263d') },
  });
  expect(answer.status).toBe(200);
}
