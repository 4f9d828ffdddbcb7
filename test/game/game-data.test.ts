/**
 * Game data end to end: real captured frames (and CS2 frames derived from them) POSTed with the
 * game's headers into a running server's application server, and what the HUD state, the match,
 * the saved state and the pages' WebSocket make of them.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, command, get, tempDir } from '../helpers/build.ts';
import type { Frame } from '../helpers/gsi.ts';
import {
  atRound,
  BOTS_DUST2,
  FAZE_NAVI,
  fixture,
  postFrame,
  ROUND_SEQUENCE,
  toCs2,
  WORKSHOP_MIRAGE,
  withToken,
} from '../helpers/gsi.ts';
import { BO3_ACTIVE_DUTY } from '../helpers/vetoes.ts';
import { connect } from '../helpers/ws-client.ts';

const signed = (server: RunningServer, frame: Frame) => withToken(frame, server.service.game.token);
const post = (server: RunningServer, frame: Frame) =>
  postFrame(server.applicationPort, signed(server, frame));
const state = async (server: RunningServer) => (await get(server, '/api/state')).body.state;
const match = async (server: RunningServer) => (await get(server, '/api/match')).body.match;

/** FaZe (CT, CS:GO slots 1-5) and NaVi (T, slots 6-9, 0), by the capture. */
const FAZE_NAVI_ROSTER = [
  { slot: 1, name: 'Twistzz' },
  { slot: 2, name: 'broky' },
  { slot: 3, name: 'rain' },
  { slot: 4, name: 'ropz' },
  { slot: 5, name: 'karrigan' },
  { slot: 6, name: 'b1t' },
  { slot: 7, name: 's1mple' },
  { slot: 8, name: 'Perfecto' },
  { slot: 9, name: 'Boombl4' },
  { slot: 0, name: 'electronic' },
];

async function seriesWithDust2(server: RunningServer, teamA = 'Alpha', teamB = 'Bravo') {
  const answer = await command(server, 'veto_set', {
    boFormat: 'bo3',
    teamA: { name: teamA },
    teamB: { name: teamB },
    steps: BO3_ACTIVE_DUTY,
  });
  expect(answer.status).toBe(200);
}

describe('the roster by HUD slot', () => {
  it('a real CS:GO frame (provider version 13833) keeps its numbering: slots 1 to 9, then 0', async () => {
    const server = await build();
    const frame = await fixture(FAZE_NAVI);
    const answer = await post(server, frame);
    expect(answer).toEqual({ status: 200, body: { ok: true } });
    const roster = (await state(server)).roster;
    expect(roster.map((entry: { name: string }) => entry.name)).toEqual(FAZE_NAVI_ROSTER.map((e) => e.name));
    // The capture's own observer_slot for each name, unchanged.
    for (const entry of roster)
      expect(frame.allplayers).toSatisfy((all: Record<string, any>) =>
        Object.values(all).some((p) => p.name === entry.name && p.observer_slot === entry.slot),
      );
    expect(server.service.game.status()).toMatchObject({ slotNumbering: 'csgo', numberingFrom: 'version' });
  });

  it('the derived CS2 frame (observer_slot 0..9, version 14093) gives the same HUD slots', async () => {
    const server = await build();
    expect((await post(server, toCs2(await fixture(FAZE_NAVI)))).status).toBe(200);
    expect((await state(server)).roster).toEqual(FAZE_NAVI_ROSTER);
    expect(server.service.game.status()).toMatchObject({ slotNumbering: 'cs2', numberingFrom: 'version' });
  });

  it('a version that does not tell follows the operator setting: CS2 by default, CS:GO when set', async () => {
    const server = await build();
    const uncertain = toCs2(await fixture(FAZE_NAVI), 13950);
    await post(server, uncertain);
    expect((await state(server)).roster).toEqual(FAZE_NAVI_ROSTER);
    expect(server.service.game.status()).toMatchObject({ slotNumbering: 'cs2', numberingFrom: 'setting' });

    await server.service.settings.update({ game: { slotNumbering: 'csgo' } });
    const csgoNumbered = structuredClone(await fixture(FAZE_NAVI));
    csgoNumbered.provider.version = 13950;
    await post(server, csgoNumbered);
    expect((await state(server)).roster).toEqual(FAZE_NAVI_ROSTER);
    expect(server.service.game.status()).toMatchObject({ slotNumbering: 'csgo', numberingFrom: 'setting' });
  });

  it('coaches and anyone without a slot on a playing side are left out', async () => {
    const server = await build();
    const frame = toCs2(await fixture(FAZE_NAVI));
    // DERIVED: a coach sits on a team without an observer slot; a caster spectates with one.
    frame.allplayers['76561190000000001'] = { name: 'coach', team: 'CT', state: { health: 0 } };
    frame.allplayers['76561190000000002'] = { name: 'caster', team: 'SPECTATOR', observer_slot: 3 };
    expect((await post(server, frame)).status).toBe(200);
    const roster = (await state(server)).roster;
    expect(roster).toEqual(FAZE_NAVI_ROSTER);
  });

  it('the roster is saved when it changes, and it survives a restart', async () => {
    const dataDir = await tempDir();
    const first = await build({ dataDir });
    await post(first, await fixture(BOTS_DUST2));
    const roster = (await state(first)).roster;
    expect(roster).toHaveLength(10);
    await first.close();
    const saved = JSON.parse(await readFile(join(dataDir, 'state.json'), 'utf8'));
    expect(saved.host.roster).toEqual(roster);
    const second = await build({ dataDir });
    expect((await state(second)).roster).toEqual(roster);
  });
});

describe('sides of team A and team B', () => {
  it('follow the team names when they match team A and team B', async () => {
    const server = await build();
    await seriesWithDust2(server, 'Natus Vincere', 'FaZe Clan');
    await post(server, await fixture(FAZE_NAVI));
    expect((await state(server)).sides).toEqual({ teamA: 'T', teamB: 'CT' });
    // The live score by team: NaVi (team A) 3, FaZe 7, onto de_dust2, map 1 of the series.
    expect((await match(server)).maps[0]).toMatchObject({
      map: 'de_dust2',
      scoreA: 3,
      scoreB: 7,
      finished: false,
    });
  });

  it('swap at half time and at each overtime half (MR12, OT MR3) by the game round count', async () => {
    const server = await build();
    await seriesWithDust2(server);
    const base = await fixture(FAZE_NAVI);
    const sides = async () => (await state(server)).sides.teamA;
    await post(server, atRound(base, 11, 'live'));
    expect(await sides()).toBe('CT');
    // Round 12 ends: the count moves during "over", the teams change sides when the next round starts.
    await post(server, atRound(base, 12, 'over'));
    await post(server, atRound(base, 12, 'over', 'intermission'));
    expect(await sides()).toBe('CT');
    await post(server, atRound(base, 12, 'freezetime'));
    expect(await sides()).toBe('T');
    await post(server, atRound(base, 23, 'live'));
    expect(await sides()).toBe('T');
    // Overtime 1: the sides of the second half, changed after its third round.
    await post(server, atRound(base, 24, 'freezetime'));
    expect(await sides()).toBe('T');
    await post(server, atRound(base, 27, 'freezetime'));
    expect(await sides()).toBe('CT');
    // Overtime 2 keeps them, and changes after its third round.
    await post(server, atRound(base, 30, 'freezetime'));
    expect(await sides()).toBe('CT');
    await post(server, atRound(base, 33, 'freezetime'));
    expect(await sides()).toBe('T');
  });

  it("a real overtime frame (round 33) keeps the operator's assignment without a frame to swap from", async () => {
    const server = await build();
    await command(server, 'swap_sides');
    await post(server, await fixture(WORKSHOP_MIRAGE));
    expect((await state(server)).sides).toEqual({ teamA: 'T', teamB: 'CT' });
  });

  it('swap_sides is a command in GET /api/actions and raises the revision', async () => {
    const server = await build();
    const catalogue = (await get(server, '/api/actions')).body.actions;
    expect(catalogue.map((a: { id: string }) => a.id)).toContain('swap_sides');
    const before = (await state(server)).revision;
    const answer = await command(server, 'swap_sides');
    expect(answer.body).toMatchObject({
      ok: true,
      state: { revision: before + 1, sides: { teamA: 'T', teamB: 'CT' } },
      result: { teamA: 'T', teamB: 'CT' },
    });
  });
});

describe('automatic results', () => {
  it('game over sets the final score and finished on the series map, and the series score follows', async () => {
    const server = await build();
    await seriesWithDust2(server, 'FaZe Clan', 'Natus Vincere');
    const over = structuredClone(await fixture(FAZE_NAVI));
    over.map.phase = 'gameover';
    over.map.round = 22;
    over.map.team_ct.score = 13;
    over.map.team_t.score = 9;
    expect((await post(server, over)).status).toBe(200);
    const summary = await match(server);
    expect(summary.maps[0]).toMatchObject({
      map: 'de_dust2',
      scoreA: 13,
      scoreB: 9,
      finished: true,
      winner: 'FaZe Clan',
    });
    expect(summary.seriesScore).toEqual({ a: 1, b: 0 });
  });

  it('a map not in the series is reported, not invented', async () => {
    const server = await build();
    await seriesWithDust2(server);
    const before = await match(server);
    const frame = await fixture(WORKSHOP_MIRAGE); // de_mirage was banned
    expect((await post(server, frame)).status).toBe(200);
    expect(await match(server)).toEqual(before);
    expect(server.service.game.status().notes).toEqual([
      'Mirage is not in the series: its score is not recorded',
    ]);
    expect(server.service.game.status().seriesMap).toBeNull();
  });
});

describe('refused frames', () => {
  it('a wrong or missing auth token is 401 in the envelope and changes nothing', async () => {
    const server = await build();
    const before = await state(server);
    const frame = await fixture(FAZE_NAVI);
    for (const token of ['Q79v5tcxVQ8u', undefined]) {
      const answer = await postFrame(server.applicationPort, withToken(frame, token));
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ ok: false, error: 'unauthorized' });
    }
    expect(await state(server)).toEqual(before);
    expect(server.service.game.status()).toMatchObject({ receiving: false, problem: 'wrong_token' });
  });

  it('bad input answers the envelope (400, 401, 413), never a 500, and changes nothing', async () => {
    const dataDir = await tempDir();
    const server = await build({ dataDir });
    await seriesWithDust2(server);
    const before = await state(server);
    const matchBefore = await match(server);
    // A HUD page follows the game: what it is sent must stay sendable.
    const page = await connect(`${server.applicationUrl.replace('http', 'ws')}/ws?role=overlay`);
    await page.waitFor((m) => m.type === 'hello');
    const token = server.service.game.token;
    const capture = await fixture(FAZE_NAVI);
    const changed = (change: (frame: Frame) => void) => {
      const frame = structuredClone(capture);
      change(frame);
      return withToken(frame, token);
    };
    const player = '76561198016255205';
    const cases: Array<[unknown, number, string]> = [
      [changed((f) => (f.allplayers[player].state.health = 'full')), 400, 'invalid_payload'],
      // Numbers the game never sends: damage whose sum overflows, a negative team score.
      [changed((f) => (f.allplayers[player].state.round_totaldmg = 1e308)), 400, 'invalid_payload'],
      [changed((f) => (f.map.team_ct.score = -5)), 400, 'invalid_payload'],
      [changed((f) => (f.map.team_t.score = 1000)), 400, 'invalid_payload'],
      // Not JSON, or not an object: with the token 400; without it refused before it is parsed (401).
      [`{"auth":{"token":"${token}"},`, 400, 'invalid_payload'],
      [[{ auth: { token } }], 400, 'invalid_payload'],
      ['{"auth":', 401, 'unauthorized'],
      [[1, 2], 401, 'unauthorized'],
      [`{"auth":{"token":"${token}"},"pad":"${'x'.repeat(1024 * 1024)}"}`, 413, 'payload_too_large'],
    ];
    for (const [body, status, error] of cases) {
      const answer = await postFrame(server.applicationPort, body);
      expect([answer.status, answer.body.error]).toEqual([status, error]);
      expect(answer.body.ok).toBe(false);
    }
    expect(await state(server)).toEqual(before);
    expect(await match(server)).toEqual(matchBefore);
    page.send({ type: 'ping', id: 'still here' });
    expect(await page.waitFor((m) => m.type === 'pong')).toMatchObject({ id: 'still here' });
    // And what was saved starts again as it was.
    await server.close();
    const again = await build({ dataDir });
    expect(await match(again)).toEqual(matchBefore);
  });

  it('takes a ten-player frame with 25 grenades, five of them burning molotovs (DERIVED)', async () => {
    const server = await build();
    const frame = toCs2(await fixture(FAZE_NAVI));
    const owners = Object.keys(frame.allplayers);
    const grenades: Record<string, unknown> = {};
    for (let i = 0; i < 25; i++) {
      const owner = Number(owners[i % owners.length]);
      // The shapes of the capture's smoke and of the game's inferno (its flames by id).
      grenades[String(400 + i)] =
        i < 5
          ? {
              owner,
              lifetime: '3.1',
              type: 'inferno',
              flames: Object.fromEntries(
                Array.from({ length: 64 }, (_, f) => [
                  `flame_${i}_${f}`,
                  `${1200 + f}.5, ${2300 - f}.25, 12.2`,
                ]),
              ),
            }
          : { ...frame.grenades['355'], owner, type: i % 2 ? 'flashbang' : 'smoke' };
    }
    frame.grenades = grenades;
    frame.previously = { ...frame.previously, allplayers: structuredClone(frame.allplayers) };
    const size = JSON.stringify(signed(server, frame)).length;
    expect(size).toBeGreaterThan(25_000);
    expect(await post(server, frame)).toEqual({ status: 200, body: { ok: true } });
    expect((await state(server)).roster).toEqual(FAZE_NAVI_ROSTER);
  });

  it('any JSON object with the token is 200 or a 400 envelope, never a 500 (property, over HTTP)', async () => {
    const server = await build();
    const token = server.service.game.token;
    const capture = await fixture(FAZE_NAVI);
    // Random JSON, and the capture with one section replaced by random JSON.
    const sections = Object.keys(capture);
    const arbitrary = fc.oneof(
      fc.jsonValue(),
      fc
        .record({ section: fc.constantFrom(...sections), value: fc.jsonValue() })
        .map(({ section, value }) => ({
          ...capture,
          [section]: value,
        })),
    );
    await fc.assert(
      fc.asyncProperty(arbitrary, async (value) => {
        const body =
          value !== null && typeof value === 'object' && !Array.isArray(value)
            ? { ...value, auth: { token } }
            : value;
        const answer = await postFrame(server.applicationPort, JSON.stringify(body));
        if (body === value) {
          // Not an object, so no token: refused before it is parsed.
          expect(answer.status).toBe(401);
          expect(answer.body).toMatchObject({ ok: false, error: 'unauthorized' });
          return;
        }
        expect([200, 400]).toContain(answer.status);
        if (answer.status !== 200) expect(answer.body).toMatchObject({ ok: false, error: 'invalid_payload' });
      }),
      { numRuns: 150 },
    );
  });

  it("a player's own view is reported and leaves the roster alone", async () => {
    const server = await build();
    await post(server, await fixture(FAZE_NAVI));
    const { allplayers: _, ...own } = await fixture(FAZE_NAVI);
    expect((await post(server, own)).status).toBe(200);
    expect((await state(server)).roster).toEqual(FAZE_NAVI_ROSTER);
    expect(server.service.game.status()).toMatchObject({ receiving: true, problem: 'player_view' });
  });
});

describe('the live channel', () => {
  it('pages get the whole view after hello, then only what changed, without a revision', async () => {
    const server = await build();
    const page = await connect(`${server.applicationUrl.replace('http', 'ws')}/ws?role=overlay`);
    const hello = await page.next();
    expect(hello.type).toBe('hello');
    expect(await page.next()).toMatchObject({ type: 'game', full: true, live: { players: {} } });

    const frames: Frame[] = (await fixture(ROUND_SEQUENCE)).map((f: Frame) => toCs2(f));
    await post(server, frames[0] as Frame);
    const first = await page.waitFor(
      (m) => m.type === 'game' && Object.keys(m.live?.players ?? {}).length > 0,
    );
    expect(Object.keys(first.live.players)).toHaveLength(10);
    const revision = (await state(server)).revision;

    // The message goes out before the answer: look from where the list was before the POST.
    const arrivedSince = (from: number, match: (m: any) => boolean) =>
      page.waitFor((m) => page.received.indexOf(m) >= from && match(m));
    // Bomb carried -> planting: the bomb changes, the players that did not change are not sent.
    let from = page.received.length;
    await post(server, frames[2] as Frame);
    const planting = await arrivedSince(from, (m) => m.type === 'game' && m.live?.bomb);
    expect(planting.live.bomb.state).toBe('planting');
    // The same frame with one player hurt: only that player goes out (the others did not move).
    const hurt = structuredClone(frames[2]) as Frame;
    // A player alive in the capture: health goes down, never below 0 (the game's range).
    const [steamid, one] = Object.entries(hurt.allplayers as Record<string, any>).find(
      ([, player]) => player.state.health > 0,
    ) as [string, any];
    one.state.health -= 1;
    from = page.received.length;
    await post(server, hurt);
    const onlyOne = await arrivedSince(from, (m) => m.type === 'game' && m.live?.players);
    expect(Object.keys(onlyOne.live.players)).toEqual([steamid]);
    expect(onlyOne.live.bomb).toBeUndefined();
    from = page.received.length;
    await post(server, frames[4] as Frame);
    const planted = await arrivedSince(from, (m) => m.type === 'game' && m.live?.bomb);
    expect(planted.live.bomb).toMatchObject({ state: 'planted' });
    expect(planted.live.round).toMatchObject({ phase: 'bomb' });
    // Live data never raised the revision (the first frame did: the roster and "receiving").
    expect((await state(server)).revision).toBe(revision);
    expect(page.received.filter((m) => m.type === 'event' && m.revision > revision)).toEqual([]);
  });

  it('show_player_stats live and toggle_stats use the live values of the observed player', async () => {
    const server = await build();
    const frame = toCs2(await fixture(FAZE_NAVI)); // GOTV follows s1mple, HUD slot 7
    await post(server, frame);
    const live = await command(server, 'show_player_stats', { slot: 7, provider: 'live' });
    expect(live.body.result.stats).toMatchObject({
      name: 's1mple',
      kills: 4,
      deaths: 9,
      assists: 2,
      health: 90,
    });
    await command(server, 'hide_stats');
    const toggled = await command(server, 'toggle_stats');
    expect(toggled.body).toMatchObject({
      state: { statsVisible: true },
      result: { player: { slot: 7, provider: 'live' }, stats: { name: 's1mple' } },
    });
    await command(server, 'hide_stats');
    expect((await command(server, 'set_stats_player', { slot: 1 })).body.result.player.name).toBe('Twistzz');
    expect((await command(server, 'show_stats')).body.result.player).toEqual({ slot: 1, provider: 'live' });
  });
});

describe('a burst of frames', () => {
  it("100 frames at the game's pace are all answered, with no save per frame", async () => {
    const server = await build();
    const frames: Frame[] = (await fixture(ROUND_SEQUENCE)).map((f: Frame) => signed(server, toCs2(f)));
    await postFrame(server.applicationPort, frames[0]);
    let saves = 0;
    const store = server.service.store;
    const requestSave = store.requestSave.bind(store);
    store.requestSave = () => {
      saves++;
      return requestSave();
    };
    const started = performance.now();
    const answers = [];
    for (let i = 0; i < 100; i++) {
      // One frame every 10 ms, each answered before the next (the game waits for the answer).
      const due = started + i * 10;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      answers.push((await postFrame(server.applicationPort, frames[i % 8])).status);
    }
    // How fast the endpoint answers is bench/parts/game-data.ts's to measure, not a test's.
    expect(answers.every((status) => status === 200)).toBe(true);
    // The eight frames of one round: the roster and the sides do not change, so nothing is saved.
    expect(saves).toBe(0);
    expect(server.service.game.status().frames).toBe(101);
  });
});
