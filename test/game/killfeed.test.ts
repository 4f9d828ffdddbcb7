/**
 * The killfeed inferred from frames (src/game/killfeed.ts), against what the recording says
 * happened. The round-sequence fixture skips frames: two deaths between two of its frames, twice,
 * once with both killers on one side (only their damage tells who killed whom). The round-kills
 * fixture has each death in the frame that reports it, and a headshot counted a frame before its
 * kill. Either way: every death one entry, killer, victim, assister, weapon and headshot right.
 */
import { describe, expect, it } from 'vitest';
import { parseFrame } from '../../src/game/game-frame.ts';
import type { KillfeedFrame } from '../../src/game/killfeed.ts';
import { Killfeed } from '../../src/game/killfeed.ts';
import type { GameKill } from '../../src/protocol/game.ts';
import type { Frame } from '../helpers/gsi.ts';
import { fixture, ROUND_SEQUENCE } from '../helpers/gsi.ts';

/** Entry ids as the game data hands them out: one count from 1. */
const counter = () => {
  let id = 0;
  return () => ++id;
};

const ROUND_KILLS = 'gsi_csgo_spectator_round_kills__nodecg-csgo-manager__standard-frames.json';

function killfeedFrame(raw: Frame): KillfeedFrame {
  const frame = parseFrame(raw, 'csgo');
  return {
    map: frame.map?.name ?? '',
    round: frame.map?.round ?? 0,
    roundPhase: frame.round?.phase ?? null,
    players: frame.players.map((player) => ({
      ...player,
      roundHeadshots: raw.allplayers[player.steamid].state.round_killhs ?? 0,
    })),
  };
}

/** Every entry made over the frames, in order (the feed itself is cleared at freeze time). */
function entriesOver(frames: Frame[]): GameKill[] {
  const feed = new Killfeed(counter());
  const seen = new Map<number, GameKill>();
  for (const raw of frames) for (const entry of feed.observe(killfeedFrame(raw))) seen.set(entry.id, entry);
  return [...seen.values()];
}

const summary = (entry: GameKill) => ({
  killer: entry.killer?.name ?? null,
  victim: entry.victim.name,
  assister: entry.assister?.name ?? null,
  weapon: entry.weapon,
  headshot: entry.headshot,
  sides: `${entry.killer?.side ?? '-'}>${entry.victim.side}`,
  round: entry.round,
});

/** What the 347-frame recording shows, frame by frame (test/fixtures/SOURCES.md). */
const RECORDED = [
  {
    killer: 'Big Daddy',
    victim: 'xxx_ajsmokesthembigoledoinks_xxx',
    assister: null,
    weapon: 'weapon_ak47',
    headshot: false,
    sides: 'T>CT',
    round: 9,
  },
  {
    killer: 'AussiePing',
    victim: 'ウソップ',
    assister: 'Atomic',
    weapon: 'weapon_m4a1',
    headshot: false,
    sides: 'CT>T',
    round: 9,
  },
  {
    killer: 'AussiePing',
    victim: 'Big Daddy',
    assister: null,
    weapon: 'weapon_m4a1',
    headshot: true,
    sides: 'CT>T',
    round: 9,
  },
  {
    killer: 'Atomic',
    victim: 'Nin. [zeus]',
    assister: null,
    weapon: 'weapon_m4a1',
    headshot: true,
    sides: 'CT>T',
    round: 9,
  },
];

const byVictim = (list: ReturnType<typeof summary>[]) =>
  [...list].sort((a, b) => a.victim.localeCompare(b.victim));

describe('the killfeed inferred from frames', () => {
  it('each death of the recorded round in the frame that reports it: one entry each, all right', async () => {
    const entries = entriesOver(await fixture(ROUND_KILLS));
    expect(entries.map(summary)).toEqual(RECORDED);
    expect(
      entries.every((entry) => entry.wallbang === null && entry.source === 'frames' && !entry.teamkill),
    ).toBe(true);
  });

  it('the round-sequence fixture, two deaths between two of its frames: still one entry each, all right', async () => {
    const frames = (await fixture(ROUND_SEQUENCE)) as Frame[];
    const entries = entriesOver(frames);
    // Every death of the frames has one entry: the deaths counters went up by four in all.
    const deaths = (frame: Frame) =>
      Object.values<Frame>(frame.allplayers).reduce((sum, player) => sum + player.match_stats.deaths, 0);
    expect(entries).toHaveLength(deaths(frames.at(-1) as Frame) - deaths(frames[0] as Frame));
    expect(byVictim(entries.map(summary))).toEqual(byVictim(RECORDED));
  });

  it('starts again at freeze time and after a restart; the first frame makes nothing', async () => {
    const frames = (await fixture(ROUND_KILLS)) as Frame[];
    const feed = new Killfeed(counter());
    expect(feed.observe(killfeedFrame(frames[1] as Frame))).toEqual([]);
    feed.observe(killfeedFrame(frames[3] as Frame));
    expect(feed.entries).toHaveLength(1);
    const freeze = structuredClone(frames[3] as Frame);
    freeze.round = { phase: 'freezetime' };
    freeze.phase_countdowns = { phase: 'freezetime', phase_ends_in: '15.0' };
    expect(feed.observe(killfeedFrame(freeze))).toEqual([]);
    // A restart: every counter back to 0, nobody "died".
    const restart = structuredClone(frames[4] as Frame);
    restart.map.round = 0;
    for (const player of Object.values<Frame>(restart.allplayers))
      player.match_stats = { kills: 0, assists: 0, deaths: 0, mvps: 0, score: 0 };
    expect(feed.observe(killfeedFrame(restart))).toEqual([]);
  });

  it('a counter that jumps (a restart, a gap in the frames) makes one death a player at most', async () => {
    const frames = (await fixture(ROUND_KILLS)) as Frame[];
    const before = frames[0] as Frame;
    const after = structuredClone(before);
    for (const player of Object.values<Frame>(after.allplayers)) {
      player.match_stats.deaths += 4000;
      player.match_stats.kills += 3000;
    }
    const feed = new Killfeed(counter());
    feed.observe(killfeedFrame(before));
    const entries = feed.observe(killfeedFrame(after));
    expect(new Set(entries.map((entry) => entry.victim.steamid)).size).toBe(entries.length);
    expect(entries.length).toBeLessThanOrEqual(8);
  });

  it('a death nobody is credited with (a fall) has no killer; a teamkill names the team-mate', async () => {
    const frames = (await fixture(ROUND_KILLS)) as Frame[];
    const before = frames[0] as Frame;
    const after = structuredClone(before);
    // A T falls to his death; a CT kills a team-mate (his kills go down by one).
    const alive = (side: string) =>
      Object.values<Frame>(after.allplayers).filter((p) => p.team === side && p.state.health > 0);
    const [first] = alive('T');
    const [second, victim] = alive('CT');
    if (!first || !second || !victim) throw new Error('a T and two CTs alive');
    first.state.health = 0;
    first.match_stats.deaths += 1;
    victim.state.health = 0;
    victim.match_stats.deaths += 1;
    second.match_stats.kills -= 1;
    const feed = new Killfeed(counter());
    feed.observe(killfeedFrame(before));
    const entries = feed
      .observe(killfeedFrame(after))
      .map((e) => [e.victim.name, e.killer?.name ?? null, e.teamkill]);
    expect(entries).toEqual(
      expect.arrayContaining([
        [first.name, null, false],
        [victim.name, second.name, true],
      ]),
    );
  });
});
