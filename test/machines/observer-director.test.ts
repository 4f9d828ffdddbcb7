/**
 * The automatic observer's director (machines/observer-director.ts) on real game frames: the
 * captures in test/fixtures (SOURCES.md; the NIP–NaVi capture's source is in its .SOURCE.md sidecar)
 * and frames derived from them, each marked DERIVED where it is made.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CINEMATIC_HOLD_MS,
  cameraTargetOf,
  type DirectorFrame,
  type DirectorPlayer,
  type DirectorState,
  direct,
  initialDirectorState,
  MIN_HOLD_MS,
  type Suggestion,
} from '../../machines/observer-director.ts';
import { toDirectorFrame } from '../../src/observer/director-frame.ts';
import { BOTS_DUST2, FAZE_NAVI, type Frame, fixture, ROUND_SEQUENCE, toCs2 } from '../helpers/gsi.ts';

const NIP_NAVI = 'gsi_csgo_gotv_pro_nip-vs-navi_ancient_bomb-planted__sces-csgo-hud-fe__output.json';

/** The captures are CS:GO: observer_slot is already the HUD slot (1..9, 0). */
const csgoSlot = (slot: number) => (slot >= 0 && slot <= 9 ? slot : null);
const cs2Slot = (slot: number) => (slot >= 0 && slot <= 9 ? (slot + 1) % 10 : null);

const frameAt = (raw: Frame, now: number, hudSlot = csgoSlot) => toDirectorFrame(raw, { now, hudSlot });

/** Plays frames through the director; returns every state and the cuts (suggestion changes). */
function play(frames: DirectorFrame[], cinematic = false) {
  let state = initialDirectorState();
  const states: DirectorState[] = [];
  const cuts: Array<Pick<Suggestion, 'steamid' | 'name' | 'reason' | 'since'>> = [];
  for (const frame of frames) {
    const before = state.suggestion?.steamid;
    state = direct(state, frame, { cinematic });
    states.push(state);
    const s = state.suggestion;
    if (s && s.steamid !== before)
      cuts.push({ steamid: s.steamid, name: s.name, reason: s.reason, since: s.since });
  }
  return { state, states, cuts };
}

/** The round sequence at the game's pace: provider timestamps (s), frames of one second 100 ms apart. */
async function roundSequence(): Promise<DirectorFrame[]> {
  const raw: Frame[] = await fixture(ROUND_SEQUENCE);
  const t0 = raw[0]?.provider.timestamp as number;
  return raw.map((frame, index) => frameAt(frame, (frame.provider.timestamp - t0) * 1000 + index * 100));
}

function setState(frame: Frame, steamid: string, changes: Record<string, unknown>) {
  Object.assign(frame.allplayers[steamid].state, changes);
}

const STEAM = {
  // Round sequence (de_dust2)
  bigDaddy: '76561198310998584',
  atomic: '76561198132024641',
  aussiePing: '76561198116802586',
  xxx: '76561198070435807',
  nin: '76561197966700425',
  // Bots (de_dust2)
  crusher: '76561197960265735',
  kyle: '76561197960265729',
  wolf: '2',
  quintin: '76561197960265732',
} as const;

describe('the director on real frames', () => {
  it('suggests the planter while the bomb goes down, and the defuser while it is defused', async () => {
    const frames = await roundSequence();
    const { states } = play(frames);
    // Frame 2 is the first with bomb.state "planting" by Big Daddy, 100 ms after a cut to Atomic:
    // the plant breaks the hold.
    expect(frames[2]?.bomb).toMatchObject({ state: 'planting', steamid: STEAM.bigDaddy });
    expect(states[1]?.suggestion?.name).toBe('Atomic');
    expect(states[2]?.suggestion).toMatchObject({
      steamid: STEAM.bigDaddy,
      slot: 8,
      reason: 'planting',
      text: 'Big Daddy is planting the bomb',
    });
    expect(frames[6]?.bomb).toMatchObject({ state: 'defusing', steamid: STEAM.atomic });
    expect(states[6]?.suggestion).toMatchObject({ steamid: STEAM.atomic, reason: 'defusing' });
  });

  it('cuts to the clutcher when a kill leaves a 1v3', async () => {
    const raw: Frame[] = await fixture(ROUND_SEQUENCE);
    const start = raw[0] as Frame;
    // DERIVED from frame 0 (3v3: AussiePing, Atomic, xxx against Big Daddy, Nin, ウソップ): Nin kills
    // AussiePing and xxx 500 ms later, which leaves Atomic alone against three.
    const kill = structuredClone(start);
    setState(kill, STEAM.aussiePing, { health: 0 });
    setState(kill, STEAM.xxx, { health: 0 });
    setState(kill, STEAM.nin, { round_kills: 3 });
    const { states } = play([frameAt(start, 0), frameAt(kill, 500)]);
    expect(states[0]?.suggestion?.steamid).not.toBe(STEAM.atomic);
    expect(states[1]?.suggestion).toMatchObject({
      steamid: STEAM.atomic,
      name: 'Atomic',
      reason: 'clutch',
      text: 'Atomic is the last alive: a clutch 1v3',
      since: 500,
    });
  });

  it('suggests the last T alive in the FaZe–NaVi capture (1v3 on GOTV), also from the CS2 numbering', async () => {
    const raw: Frame = await fixture(FAZE_NAVI);
    const csgo = play([frameAt(raw, 0)]).state.suggestion;
    expect(csgo).toMatchObject({ name: 's1mple', slot: 7, reason: 'clutch' });
    // DERIVED: the same frame as CS2 sends it (observer_slot 0..9): the same player, the same HUD slot.
    const cs2 = play([frameAt(toCs2(raw), 0, cs2Slot)]).state.suggestion;
    expect(cs2).toEqual(csgo);
  });

  it('never suggests a dead player, whatever the frame', async () => {
    const frames = [
      ...(await roundSequence()),
      frameAt(await fixture(FAZE_NAVI), 40_000),
      frameAt(await fixture(NIP_NAVI), 41_000),
      frameAt(await fixture(BOTS_DUST2), 42_000),
    ];
    const { states } = play(frames);
    states.forEach((state, index) => {
      const frame = frames[index] as DirectorFrame;
      expectLivingSuggestion(state, frame);
    });
  });

  it('holds a cut for 2 s, then moves to a player who scores clearly more', async () => {
    const quiet: Frame = await fixture(BOTS_DUST2);
    // DERIVED: Kyle (CT) kills Wolf 500 ms after the first frame.
    const kill = structuredClone(quiet);
    setState(kill, STEAM.kyle, { round_kills: 1 });
    setState(kill, STEAM.wolf, { health: 0 });
    const { states } = play([
      frameAt(quiet, 0),
      frameAt(kill, 500),
      frameAt(kill, MIN_HOLD_MS - 1),
      frameAt(kill, MIN_HOLD_MS),
    ]);
    expect(states[0]?.suggestion).toMatchObject({ steamid: STEAM.crusher, since: 0 });
    expect(states[1]?.suggestion?.steamid).toBe(STEAM.crusher);
    expect(states[2]?.suggestion?.steamid).toBe(STEAM.crusher);
    expect(states[3]?.suggestion).toMatchObject({
      steamid: STEAM.kyle,
      reason: 'fresh_kill',
      since: MIN_HOLD_MS,
    });
  });

  it('breaks the hold for a plant', async () => {
    const quiet: Frame = await fixture(BOTS_DUST2);
    const kill = structuredClone(quiet);
    setState(kill, STEAM.kyle, { round_kills: 1 });
    setState(kill, STEAM.wolf, { health: 0 });
    // DERIVED: 500 ms into Kyle's hold, Quintin starts planting.
    const plant = structuredClone(kill);
    plant.bomb = { ...plant.bomb, state: 'planting', player: STEAM.quintin };
    const { states } = play([frameAt(quiet, 0), frameAt(kill, 2_000), frameAt(plant, 2_500)]);
    expect(states[1]?.suggestion).toMatchObject({ steamid: STEAM.kyle, since: 2_000 });
    expect(states[2]?.suggestion).toMatchObject({ steamid: STEAM.quintin, reason: 'planting', since: 2_500 });
  });

  it('cuts at once when the watched player dies; with the cinematic camera the camera stays on the death first', async () => {
    const quiet: Frame = await fixture(BOTS_DUST2);
    const kill = structuredClone(quiet);
    setState(kill, STEAM.kyle, { round_kills: 1 });
    setState(kill, STEAM.wolf, { health: 0 });
    // DERIVED: Kyle dies 100 ms into his hold.
    const death = structuredClone(kill);
    setState(death, STEAM.kyle, { health: 0 });
    const frames = [
      frameAt(quiet, 0),
      frameAt(kill, 2_000),
      frameAt(death, 2_100),
      frameAt(death, 2_100 + CINEMATIC_HOLD_MS - 1),
      frameAt(death, 2_100 + CINEMATIC_HOLD_MS),
    ];

    const plain = play(frames, false).states;
    expect(plain[2]?.suggestion?.steamid).not.toBe(STEAM.kyle);
    expect(plain[2]?.suggestion?.since).toBe(2_100);
    expect(cameraTargetOf(plain[2] as DirectorState)).toEqual(plain[2]?.suggestion);

    const cinematic = play(frames, true).states;
    // The suggestion moves on (never a dead player), the camera holds on the death until the hold ends.
    expect(cinematic[2]?.suggestion).toEqual(plain[2]?.suggestion);
    expect(cameraTargetOf(cinematic[2] as DirectorState)).toBeNull();
    expect(cameraTargetOf(cinematic[3] as DirectorState)).toBeNull();
    expect(cameraTargetOf(cinematic[4] as DirectorState)?.steamid).toBe(cinematic[2]?.suggestion?.steamid);
  });

  it('a plant ends the cinematic hold at once', async () => {
    const quiet: Frame = await fixture(BOTS_DUST2);
    const kill = structuredClone(quiet);
    setState(kill, STEAM.kyle, { round_kills: 1 });
    setState(kill, STEAM.wolf, { health: 0 });
    const death = structuredClone(kill);
    setState(death, STEAM.kyle, { health: 0 });
    const plant = structuredClone(death);
    plant.bomb = { ...plant.bomb, state: 'planting', player: STEAM.quintin };
    const { states } = play(
      [frameAt(quiet, 0), frameAt(kill, 2_000), frameAt(death, 2_100), frameAt(plant, 2_600)],
      true,
    );
    expect(cameraTargetOf(states[2] as DirectorState)).toBeNull();
    expect(cameraTargetOf(states[3] as DirectorState)).toMatchObject({
      steamid: STEAM.quintin,
      reason: 'planting',
    });
  });

  it('learns a bomb site from a plant and sees the carrier near it in a later round', async () => {
    const base: Frame = await fixture(BOTS_DUST2);
    // DERIVED: the bots frame on a map the director knows no site of, with the bomb planted at a
    // spot; later the carrier walks there.
    const planted = structuredClone(base);
    planted.map.name = 'de_testmap';
    planted.bomb = { state: 'planted', position: '100.0, 200.0, 0.0' };
    const nextRound = structuredClone(base);
    nextRound.map.name = 'de_testmap';
    nextRound.allplayers[STEAM.quintin].position = '300.0, 250.0, 0.0';
    const { states } = play([frameAt(planted, 0), frameAt(nextRound, 10_000)]);
    expect(states[0]?.sites).toEqual({ de_testmap: [{ x: 100, y: 200, z: 0 }] });
    expect(states[1]?.suggestion).toMatchObject({ steamid: STEAM.quintin, reason: 'bomb_near_site' });
  });

  it('is deterministic: the same frames give the same cuts, in any player order', async () => {
    const frames = await roundSequence();
    const once = play(frames);
    const twice = play(frames);
    expect(twice.cuts).toEqual(once.cuts);
    expect(twice.states).toEqual(once.states);
    const shuffled = frames.map((frame) => ({ ...frame, players: [...frame.players].reverse() }));
    expect(play(shuffled).cuts).toEqual(once.cuts);
    // What the round looks like to a viewer.
    expect(once.cuts.map((cut) => `${cut.name}: ${cut.reason}`)).toEqual([
      'xxx_ajsmokesthembigoledoinks_xxx: duel',
      'Atomic: duel',
      'Big Daddy: planting',
      'Atomic: fresh_kill',
    ]);
  });

  it('costs well under 0.2 ms of CPU per frame with ten players', async () => {
    const frames = [...(await roundSequence()), frameAt(await fixture(BOTS_DUST2), 50_000)];
    const rounds = 2_000;
    let state = initialDirectorState();
    const start = process.cpuUsage();
    for (let round = 0; round < rounds; round += 1) {
      for (const [index, frame] of frames.entries()) {
        state = direct(
          state,
          { ...frame, now: round * 60_000 + index * 100 },
          { cinematic: round % 2 === 0 },
        );
      }
    }
    const used = process.cpuUsage(start);
    const perFrameMs = (used.user + used.system) / 1000 / (rounds * frames.length);
    console.log(`director: ${(perFrameMs * 1000).toFixed(1)} µs CPU per frame (ten players)`);
    expect(perFrameMs).toBeLessThan(0.2);
  });
});

function expectLivingSuggestion(state: DirectorState, frame: DirectorFrame) {
  const living = frame.players.filter((player) => player.health > 0);
  if (living.length === 0) {
    expect(state.suggestion).toBeNull();
    return;
  }
  const suggested = frame.players.find((player) => player.steamid === state.suggestion?.steamid);
  expect(suggested, 'the suggestion is a player of this frame').toBeDefined();
  expect(suggested?.health, `${suggested?.name} is alive`).toBeGreaterThan(0);
  expect(living.some((player) => player.side === suggested?.side)).toBe(true);
  const camera = cameraTargetOf(state);
  if (camera) expect(camera.steamid).toBe(state.suggestion?.steamid);
}

// ---------------------------------------------------------------------------------------------
// Property: any sequence of frames

const vec = fc.record({
  x: fc.double({ min: -4000, max: 4000, noNaN: true }),
  y: fc.double({ min: -4000, max: 4000, noNaN: true }),
  z: fc.double({ min: -500, max: 500, noNaN: true }),
});

const playerArb = (slot: number): fc.Arbitrary<DirectorPlayer> =>
  fc.record({
    slot: fc.constant(slot),
    steamid: fc.constant(`7656119800000000${slot}`),
    name: fc.string({ maxLength: 12 }),
    side: fc.constantFrom('CT' as const, 'T' as const),
    health: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 100 })),
    position: fc.option(vec),
    forward: fc.option(vec),
    flashed: fc.integer({ min: 0, max: 255 }),
    burning: fc.integer({ min: 0, max: 255 }),
    roundKills: fc.integer({ min: 0, max: 5 }),
    hasBomb: fc.boolean(),
    activity: fc.constantFrom(null, 'planting' as const, 'defusing' as const),
  });

const frameArb = fc.record({
  gap: fc.integer({ min: 0, max: 3_000 }),
  map: fc.constantFrom('de_dust2', 'de_ancient', 'workshop/1/de_mirage', null),
  phase: fc.constantFrom('live', 'bomb', 'defuse', 'over', 'freezetime', 'warmup', ''),
  bomb: fc.option(
    fc.record({
      state: fc.constantFrom('carried', 'planting', 'planted', 'defusing', 'dropped'),
      position: fc.option(vec),
      steamid: fc.option(fc.constantFrom(...Array.from({ length: 10 }, (_, s) => `7656119800000000${s}`))),
    }),
  ),
  observedSlot: fc.option(fc.integer({ min: 0, max: 9 })),
  // Players come and go (a subset of the ten, in any order).
  players: fc.subarray([1, 2, 3, 4, 5, 6, 7, 8, 9, 0]).chain((slots) => fc.tuple(...slots.map(playerArb))),
});

describe('the director, property', () => {
  it('always suggests a living player of a side with someone alive (or nobody when all are dead)', () => {
    fc.assert(
      fc.property(fc.array(frameArb, { minLength: 1, maxLength: 25 }), fc.boolean(), (raws, cinematic) => {
        let state = initialDirectorState();
        let now = 0;
        for (const raw of raws) {
          now += raw.gap;
          const frame: DirectorFrame = { ...raw, now, players: [...raw.players] };
          state = direct(state, frame, { cinematic });
          expectLivingSuggestion(state, frame);
        }
      }),
      { numRuns: 300 },
    );
  });
});
