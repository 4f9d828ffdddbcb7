/**
 * ADR and the figures it is computed from: the rounds of a map that are over are saved with the
 * roster once a round (never per frame), so a restart mid-map (a clean one, or kill -9 once the
 * round's save landed) continues from them; a new map starts over. The rounds are the captured frames
 * of test/fixtures' round sequence with the round count, the phases and each player's round damage
 * changed (DERIVED), played over HTTP as the game posts them.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MapFigures } from '../../machines/host.machine.ts';
import type { RoundFrame } from '../../src/game/adr.ts';
import { AdrTracker } from '../../src/game/adr.ts';
import { GAME_TOKEN_FILE } from '../../src/persistence/data-dir.ts';
import type { RunningServer } from '../../src/server.ts';
import { build, tempDir } from '../helpers/build.ts';
import { post as postCommand, startCli } from '../helpers/cli-process.ts';
import type { Frame } from '../helpers/gsi.ts';
import { FAZE_NAVI, fixture, ROUND_SEQUENCE, toCs2, withToken } from '../helpers/gsi.ts';

const frameOf = (over: Partial<RoundFrame>): RoundFrame => ({
  map: 'de_dust2',
  round: 0,
  roundPhase: 'live',
  mapPhase: 'live',
  damage: [],
  ...over,
});

describe('AdrTracker', () => {
  it('counts each round once, with its damage when it ends', () => {
    const adr = new AdrTracker(null);
    adr.observe(frameOf({ round: 0, roundPhase: 'freezetime', damage: [['a', 0]] }));
    expect(adr.adrOf('a')).toBeNull();
    adr.observe(frameOf({ round: 0, damage: [['a', 40]] }));
    adr.observe(frameOf({ round: 0, damage: [['a', 90]] }));
    // Not known while the first round seen is in play.
    expect(adr.adrOf('a')).toBeNull();
    // The round is over: the game has moved map.round on, the damage is still the ended round's.
    adr.observe(frameOf({ round: 1, roundPhase: 'over', damage: [['a', 120]] }));
    const figures = { map: 'de_dust2', round: 1, rounds: 1, damage: { a: 120 } };
    expect(adr.figures).toEqual(figures);
    // Damage after the end is not the round's any more; the next round's freeze time counts nothing.
    adr.observe(frameOf({ round: 1, roundPhase: 'over', damage: [['a', 150]] }));
    adr.observe(frameOf({ round: 1, roundPhase: 'freezetime', damage: [['a', 0]] }));
    expect(adr.figures).toEqual(figures);
    expect(adr.adrOf('a')).toBe(120);
    // The round in play is not in it until it is over.
    adr.observe(frameOf({ round: 1, damage: [['a', 30]] }));
    expect(adr.adrOf('a')).toBe(120);
    adr.observe(frameOf({ round: 2, roundPhase: 'over', damage: [['a', 30]] }));
    expect(adr.adrOf('a')).toBe(75);
  });

  it('the figures are the same object while no round ends: nothing to save per frame', () => {
    const adr = new AdrTracker(null);
    adr.observe(frameOf({ round: 0, damage: [['a', 10]] }));
    adr.observe(frameOf({ round: 1, roundPhase: 'over', damage: [['a', 10]] }));
    const figures = adr.figures;
    adr.observe(frameOf({ round: 1, roundPhase: 'freezetime' }));
    for (let damage = 0; damage < 100; damage += 10)
      adr.observe(frameOf({ round: 1, damage: [['a', damage]] }));
    expect(adr.figures).toBe(figures);
  });

  it('warm-up and freeze time alone do not count a round', () => {
    const adr = new AdrTracker(null);
    adr.observe(frameOf({ round: 0, mapPhase: 'warmup', damage: [['a', 300]] }));
    adr.observe(frameOf({ round: 0, roundPhase: 'freezetime', damage: [['a', 0]] }));
    adr.observe(frameOf({ round: 1, roundPhase: 'freezetime', damage: [['a', 0]] }));
    expect(adr.figures).toBeNull();
    expect(adr.adrOf('a')).toBeNull();
  });

  it('continues from saved figures; a round already in them is not counted again', () => {
    const saved: MapFigures = { map: 'de_dust2', round: 5, rounds: 5, damage: { a: 400 } };
    const adr = new AdrTracker(saved);
    // A restart during the over frames of the round the figures closed last.
    adr.observe(frameOf({ round: 5, roundPhase: 'over', damage: [['a', 100]] }));
    expect(adr.adrOf('a')).toBe(80);
    adr.observe(frameOf({ round: 5, roundPhase: 'freezetime', damage: [['a', 0]] }));
    expect(adr.adrOf('a')).toBe(80);
    adr.observe(frameOf({ round: 5, damage: [['a', 200]] }));
    expect(adr.adrOf('a')).toBe(80);
    expect(adr.figures).toBe(saved);
    adr.observe(frameOf({ round: 6, roundPhase: 'over', damage: [['a', 200]] }));
    expect(adr.adrOf('a')).toBe(100);
  });

  it('a new map, or the same map started again, starts over', () => {
    const saved: MapFigures = { map: 'de_dust2', round: 5, rounds: 5, damage: { a: 400 } };
    const other = new AdrTracker(saved);
    other.observe(frameOf({ map: 'de_mirage', round: 0, damage: [['a', 50]] }));
    expect(other.figures).toBeNull();
    expect(other.adrOf('a')).toBeNull();
    other.observe(frameOf({ map: 'de_mirage', round: 1, roundPhase: 'over', damage: [['a', 50]] }));
    expect(other.adrOf('a')).toBe(50);
    const again = new AdrTracker(saved);
    again.observe(frameOf({ round: 0, damage: [['a', 70]] }));
    expect(again.figures).toBeNull();
    expect(again.adrOf('a')).toBeNull();
  });

  it('a SteamID that is a method name of objects is a player like any other', () => {
    const adr = new AdrTracker({ map: 'de_dust2', round: 1, rounds: 1, damage: {} });
    expect(adr.adrOf('toString')).toBeNull();
    adr.observe(frameOf({ round: 1, damage: [['toString', 20]] }));
    adr.observe(frameOf({ round: 2, roundPhase: 'over', damage: [['toString', 20]] }));
    expect(adr.adrOf('toString')).toBe(10);
  });
});

/** Damage of player `i` in round `r` (0..249), so that every round and player differ. */
const damageOf = (round: number, i: number) => (round * 37 + i * 53 + 11) % 250;

/** The frames of round `r` (numbered from 0) of de_dust2: freeze time, twice live, over (DERIVED). */
function roundFrames(template: Frame, round: number): Frame[] {
  const frame = (count: number, phase: string, damage: (i: number) => number) => {
    const copy = structuredClone(template);
    copy.map.round = count;
    copy.map.phase = 'live';
    copy.round = { phase };
    copy.phase_countdowns = { phase, phase_ends_in: '10.0' };
    for (const [i, player] of Object.values<Frame>(copy.allplayers).entries()) {
      player.state.round_totaldmg = damage(i);
    }
    return copy;
  };
  return [
    frame(round, 'freezetime', () => 0),
    frame(round, 'live', (i) => Math.floor(damageOf(round, i) / 2)),
    frame(round, 'live', (i) => damageOf(round, i)),
    frame(round + 1, 'over', (i) => damageOf(round, i)),
  ];
}

/** ADR of each player over rounds 0..last, as the game data defines it (one decimal). */
function expectedAdr(template: Frame, last: number): Record<string, number> {
  const steamids = Object.keys(template.allplayers);
  return Object.fromEntries(
    steamids.map((steamid, i) => {
      let sum = 0;
      for (let round = 0; round <= last; round++) sum += damageOf(round, i);
      return [steamid, Math.round((sum / (last + 1)) * 10) / 10];
    }),
  );
}

/** Every HUD slot's live ADR by SteamID, read over HTTP (show_player_stats with the live provider). */
async function adrOverHttp(httpUrl: string): Promise<Record<string, number | null>> {
  const adr: Record<string, number | null> = {};
  for (let slot = 0; slot <= 9; slot++) {
    const answer = await postCommand(httpUrl, 'show_player_stats', { slot, provider: 'live' });
    expect(answer.status).toBe(200);
    const stats = answer.body.result.stats;
    adr[stats.steamid] = stats.adr;
  }
  return adr;
}

async function postAll(url: string, token: string, frames: Frame[]): Promise<void> {
  for (const frame of frames) {
    const answer = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(withToken(frame, token)),
    });
    expect(answer.status).toBe(200);
  }
}

const gsiOf = (server: RunningServer) => `${server.applicationUrl}/gsi`;

describe('ADR over a restart mid-map', () => {
  it('rounds 1-4, a restart on the same data directory, round 5: ADR is that of all five rounds', async () => {
    const template = toCs2((await fixture(ROUND_SEQUENCE))[0]);
    const dataDir = await tempDir();
    const first = await build({ dataDir });
    const token = first.service.game.token;
    for (let round = 0; round < 4; round++) await postAll(gsiOf(first), token, roundFrames(template, round));
    expect(await adrOverHttp(first.httpUrl)).toEqual(expectedAdr(template, 3));
    await first.close();

    const second = await build({ dataDir });
    // Round 5 from its freeze time: the figures of rounds 1-4 came back with the roster.
    await postAll(gsiOf(second), token, roundFrames(template, 4));
    expect(await adrOverHttp(second.httpUrl)).toEqual(expectedAdr(template, 4));
    // And into round 6: round 5 joined the saved figures.
    await postAll(gsiOf(second), token, roundFrames(template, 5).slice(0, 1));
    expect(second.service.hud.snapshot('host').context.mapFigures).toMatchObject({ round: 5, rounds: 5 });
    expect(await adrOverHttp(second.httpUrl)).toEqual(expectedAdr(template, 4));
  });

  it('a restart in the middle of a round: ADR is that of all five rounds once it ends, not known rounds only', async () => {
    const template = toCs2((await fixture(ROUND_SEQUENCE))[0]);
    const dataDir = await tempDir();
    const first = await build({ dataDir });
    const token = first.service.game.token;
    for (let round = 0; round < 4; round++) await postAll(gsiOf(first), token, roundFrames(template, round));
    const round5 = roundFrames(template, 4);
    // Round 5's freeze time and first half: in play, not in ADR yet.
    await postAll(gsiOf(first), token, round5.slice(0, 2));
    expect(await adrOverHttp(first.httpUrl)).toEqual(expectedAdr(template, 3));
    await first.close();
    const second = await build({ dataDir });
    await postAll(gsiOf(second), token, round5.slice(2));
    expect(await adrOverHttp(second.httpUrl)).toEqual(expectedAdr(template, 4));
  });

  it('a late start (the pro capture at round 11): not known until the first round seen ends, then over that round only', async () => {
    // DERIVED from the FaZe vs NAVI capture: rain has 18 kills, 10 rounds played before the server saw any.
    const live = toCs2(await fixture(FAZE_NAVI));
    const server = await build();
    const token = server.service.game.token;
    await postAll(gsiOf(server), token, [live]);
    const rain = Object.entries<Frame>(live.allplayers).find(([, p]) => p.name === 'rain');
    if (!rain) throw new Error('rain is in the capture');
    expect(rain[1].match_stats.kills).toBe(18);
    const before = await adrOverHttp(server.httpUrl);
    expect(Object.values(before).every((adr) => adr === null)).toBe(true);
    // The round ends: the game counts it, round_totaldmg still the round's.
    const over = structuredClone(live);
    over.map.round += 1;
    over.round = { phase: 'over', win_team: 'CT' };
    over.phase_countdowns = { phase: 'over', phase_ends_in: '5.0' };
    await postAll(gsiOf(server), token, [over]);
    const after = await adrOverHttp(server.httpUrl);
    for (const [steamid, player] of Object.entries<Frame>(live.allplayers)) {
      if (!(steamid in after)) continue;
      expect(after[steamid], player.name).toBe(player.state.round_totaldmg);
    }
    expect(after[rain[0]]).toBe(rain[1].state.round_totaldmg);
  });

  it("a frame that does not end a round writes nothing; the round's end writes once", async () => {
    const template = toCs2((await fixture(ROUND_SEQUENCE))[0]);
    const server = await build();
    const token = server.service.game.token;
    const [freezetime, live, moreDamage, over] = roundFrames(template, 1) as [Frame, Frame, Frame, Frame];
    await postAll(gsiOf(server), token, [...roundFrames(template, 0), freezetime]);
    // Written so far: the roster, "receiving" and round 1's figures. From here on, round 2 is played.
    await server.service.store.durable();
    const appends = () => server.service.store.counters.appends;
    const before = appends();
    for (const frame of [live, moreDamage, moreDamage, moreDamage]) {
      await postAll(gsiOf(server), token, [frame]);
      await server.service.store.durable();
    }
    expect(appends()).toBe(before);
    // Round 2 is over: it joins the figures, one write; its other "over" frames and round 3's freeze
    // time write nothing.
    for (const frame of [over, over, roundFrames(template, 2)[0] as Frame]) {
      await postAll(gsiOf(server), token, [frame]);
      await server.service.store.durable();
      expect(appends()).toBe(before + 1);
    }
  });

  it('kill -9 once the round was saved: the restarted process continues from the saved rounds', async () => {
    const template = toCs2((await fixture(ROUND_SEQUENCE))[0]);
    const dataDir = await tempDir();
    const start = () => startCli(['--headless', '--no-obs', '--data-dir', dataDir, '--log-level', 'warn']);
    const first = await start();
    const token = (await readFile(join(dataDir, GAME_TOKEN_FILE), 'utf8')).trim();
    for (let round = 0; round < 3; round++) {
      await postAll(`${first.httpUrl}/gsi`, token, roundFrames(template, round));
    }
    // Round 4's freeze time closes round 3. A command answered after it is written after it: the
    // store writes in order, each write the whole state of its moment.
    await postAll(`${first.httpUrl}/gsi`, token, roundFrames(template, 3).slice(0, 1));
    expect((await postCommand(first.httpUrl, 'set_event_name', { name: 'after round 3' })).status).toBe(200);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await start();
    try {
      await postAll(`${second.httpUrl}/gsi`, token, roundFrames(template, 3).slice(1));
      expect(await adrOverHttp(second.httpUrl)).toEqual(expectedAdr(template, 3));
    } finally {
      second.child.kill('SIGKILL');
      await second.exited;
    }
  }, 60_000);
});

describe('a new map starts over', () => {
  it('the figures of de_dust2 are dropped when the game plays de_mirage', async () => {
    const template = toCs2((await fixture(ROUND_SEQUENCE))[0]);
    const server = await build();
    const token = server.service.game.token;
    for (let round = 0; round < 2; round++) await postAll(gsiOf(server), token, roundFrames(template, round));
    expect(server.service.hud.snapshot('host').context.mapFigures).toMatchObject({ map: 'de_dust2' });
    const mirage = structuredClone(template);
    mirage.map.name = 'de_mirage';
    await postAll(gsiOf(server), token, roundFrames(mirage, 0).slice(0, 1));
    expect(server.service.hud.snapshot('host').context.mapFigures).toBeNull();
    await postAll(gsiOf(server), token, roundFrames(mirage, 0).slice(1));
    expect(server.service.hud.snapshot('host').context.mapFigures).toMatchObject({
      map: 'de_mirage',
      rounds: 1,
    });
    expect(await adrOverHttp(server.httpUrl)).toEqual(expectedAdr(template, 0));
  });
});
