/**
 * Game data within what the game sends (docs/game-data.md, "What a frame may hold"): real captures
 * edited past the game's ranges (a 510-entry allplayers, two players in one slot, health of
 * -1,000,000, a position of NaN, a countdown of -5 or 1e999 …) are 400 invalid_payload in the
 * envelope, nothing is saved and nothing reaches the pages; the real captures, and the captures with
 * any values inside the ranges, are taken.
 */
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, get } from '../helpers/build.ts';
import type { Frame } from '../helpers/gsi.ts';
import { FAZE_NAVI, fixture, postFrame, toCs2, withToken } from '../helpers/gsi.ts';
import { connect } from '../helpers/ws-client.ts';

/**
 * JSON's 1e999, which parses as Infinity and which no edit of an object can write (JSON.stringify
 * writes null): an edit sets a field to this marker, and the text sent has 1e999 in its place.
 */
const INFINITE = '<1e999>';

const post = (server: RunningServer, frame: Frame) =>
  postFrame(
    server.applicationPort,
    JSON.stringify(withToken(frame, server.service.game.token)).replaceAll(`"${INFINITE}"`, '1e999'),
  );

/** s1mple in the capture (T, CS:GO slot 7). */
const PLAYER = '76561198034202275';

/** The capture with one change (DERIVED); CS2's numbering. */
async function edited(change: (frame: Frame) => void): Promise<Frame> {
  const frame = toCs2(await fixture(FAZE_NAVI));
  change(frame);
  return frame;
}

const state = (frame: Frame, field: string, value: unknown) => {
  frame.allplayers[PLAYER].state[field] = value;
};

/** Each an edit of the capture the game never sends, and what the answer names. */
const REFUSED: Array<[string, (frame: Frame) => void, RegExp]> = [
  [
    'a 510-entry allplayers',
    (frame) => {
      const base = frame.allplayers[PLAYER];
      for (let i = 0; i < 500; i++) {
        frame.allplayers[`7656119000000${String(i).padStart(4, '0')}`] = {
          ...base,
          name: `extra ${i}`,
          team: 'SPECTATOR',
        };
      }
    },
    /allplayers/,
  ],
  [
    'a 510-entry roster with slots (every extra on CT)',
    (frame) => {
      const base = frame.allplayers[PLAYER];
      for (let i = 0; i < 500; i++) {
        frame.allplayers[`7656119000000${String(i).padStart(4, '0')}`] = {
          ...base,
          team: 'CT',
          observer_slot: i % 10,
        };
      }
    },
    /allplayers/,
  ],
  [
    'two players on the playing sides in one slot',
    (frame) => {
      const [first, second] = Object.values<Frame>(frame.allplayers);
      (second as Frame).observer_slot = (first as Frame).observer_slot;
    },
    /observer_slot/,
  ],
  ['an observer slot of 10', (frame) => (frame.allplayers[PLAYER].observer_slot = 10), /observer_slot/],
  ['health of -1,000,000', (frame) => state(frame, 'health', -1_000_000), /health/],
  ['health of 101', (frame) => state(frame, 'health', 101), /health/],
  ['armor of 101', (frame) => state(frame, 'armor', 101), /armor/],
  ['money of 65,536', (frame) => state(frame, 'money', 65_536), /money/],
  ['money of -1', (frame) => state(frame, 'money', -1), /money/],
  ['flashed 256', (frame) => state(frame, 'flashed', 256), /flashed/],
  ['burning -1', (frame) => state(frame, 'burning', -1), /burning/],
  ['64 kills in one round', (frame) => state(frame, 'round_kills', 64), /round_kills/],
  ['6,301 damage in one round', (frame) => state(frame, 'round_totaldmg', 6_301), /round_totaldmg/],
  ['100,000 kills on a map', (frame) => (frame.allplayers[PLAYER].match_stats.kills = 100_000), /kills/],
  [
    'a clip of 1,000 rounds',
    (frame) => {
      const weapon = Object.values<Frame>(frame.allplayers[PLAYER].weapons).find(
        (w) => w.ammo_clip !== undefined,
      );
      (weapon as Frame).ammo_clip = 1_000;
    },
    /ammo_clip/,
  ],
  ['a round count of 1,000', (frame) => (frame.map.round = 1_000), /round/],
];

const player = (frame: Frame) => frame.allplayers[PLAYER];
/** The capture's smoke. */
const smoke = (frame: Frame) => frame.grenades['355'];

/**
 * Each kind of number no game writes, in each kind of numeric field: a position, a flame, a velocity
 * (text "x, y, z"), a direction (a unit vector), a countdown (text or a number), a count, an id or a
 * time. NaN, Infinity and 1e999 (Infinity once read), negatives where the field cannot be, and
 * values past what any map, clock or build reaches.
 */
const NOT_NUMBERS: Array<[string, (frame: Frame) => void, RegExp]> = [
  ['a position of NaN', (frame) => (player(frame).position = 'NaN, 2058.0, 1.6'), /position/],
  ['a position of Infinity', (frame) => (player(frame).position = '1101.6, Infinity, 1.6'), /position/],
  ['a position of 1e999', (frame) => (player(frame).position = '1e999, 2058.0, 1.6'), /position/],
  ['a position 100,000 units out', (frame) => (player(frame).position = '100000.0, 0.0, 0.0'), /position/],
  ['a position of two numbers', (frame) => (player(frame).position = '1101.6, 2058.0'), /position/],
  [
    "the observed player's position of -Infinity",
    (frame) => (frame.player.position = '-Infinity, 0, 0'),
    /position/,
  ],
  [
    "the bomb's position of NaN",
    (frame) => (frame.bomb.position = 'NaN, NaN, NaN'),
    /\/bomb\/position Expected "x, y, z": three decimals/,
  ],
  ["a smoke's position of 1e999", (frame) => (smoke(frame).position = '1211.8, 1e999, 12.2'), /position/],
  [
    "a smoke's velocity of Infinity",
    (frame) => (smoke(frame).velocity = 'Infinity, 0.000, 0.000'),
    /velocity/,
  ],
  [
    "an inferno's flame at NaN",
    (frame) => (frame.grenades['356'] = { type: 'inferno', flames: { flame_1: 'NaN, 2269.44, -53.81' } }),
    /flame_1/,
  ],
  [
    'a direction of 2 (not a unit vector)',
    (frame) => (player(frame).forward = '2.000, 0.000, 0.000'),
    /forward/,
  ],
  ['a direction of NaN', (frame) => (frame.player.forward = 'NaN, 0.141, 0.028'), /forward/],
  ['a phase countdown of -5', (frame) => (frame.phase_countdowns.phase_ends_in = '-5.0'), /phase_ends_in/],
  [
    'a phase countdown of NaN',
    (frame) => (frame.phase_countdowns.phase_ends_in = 'NaN'),
    /\/phase_countdowns\/phase_ends_in Expected seconds from 0/,
  ],
  [
    'a phase countdown of "Infinity"',
    (frame) => (frame.phase_countdowns.phase_ends_in = 'Infinity'),
    /phase_ends_in/,
  ],
  [
    'a phase countdown of "1e999"',
    (frame) => (frame.phase_countdowns.phase_ends_in = '1e999'),
    /phase_ends_in/,
  ],
  [
    'a phase countdown of 1e999',
    (frame) => (frame.phase_countdowns.phase_ends_in = INFINITE),
    /phase_ends_in/,
  ],
  [
    'a phase countdown of -1 (a number)',
    (frame) => (frame.phase_countdowns.phase_ends_in = -1),
    /phase_ends_in/,
  ],
  [
    'a phase countdown of 100,000 s',
    (frame) => (frame.phase_countdowns.phase_ends_in = '100000.0'),
    /phase_ends_in/,
  ],
  ['a bomb countdown of -0.1', (frame) => (frame.bomb.countdown = '-0.1'), /countdown/],
  ['a bomb countdown of 1e999', (frame) => (frame.bomb.countdown = INFINITE), /countdown/],
  ["a smoke's lifetime of -1", (frame) => (smoke(frame).lifetime = '-1.000'), /lifetime/],
  ["a smoke's effect time of NaN", (frame) => (smoke(frame).effecttime = 'NaN'), /effecttime/],
  ['health of 1e999', (frame) => state(frame, 'health', INFINITE), /health/],
  ['money of 1e999', (frame) => state(frame, 'money', INFINITE), /money/],
  ['a round count of -1', (frame) => (frame.map.round = -1), /round/],
  ["CT's score of 1e999", (frame) => (frame.map.team_ct.score = INFINITE), /score/],
  ['kills of 1e999', (frame) => (player(frame).match_stats.kills = INFINITE), /kills/],
  ['an observer slot of 1e999', (frame) => (player(frame).observer_slot = INFINITE), /observer_slot/],
  ['a provider version of 1e300', (frame) => (frame.provider.version = 1e300), /version/],
  ['a provider version of -1', (frame) => (frame.provider.version = -1), /version/],
  ['an app id of 1e999', (frame) => (frame.provider.appid = INFINITE), /appid/],
  ['a timestamp of -1', (frame) => (frame.provider.timestamp = -1), /timestamp/],
  ['a timestamp of "NaN"', (frame) => (frame.provider.timestamp = 'NaN'), /timestamp/],
  ['a timestamp of 1e999', (frame) => (frame.provider.timestamp = INFINITE), /timestamp/],
  ["a smoke's owner of 1e300", (frame) => (smoke(frame).owner = 1e300), /owner/],
];

/**
 * Posts each edit of the capture to a running server with an overlay page open: each is 400
 * invalid_payload in the envelope naming the field; nothing is saved, the HUD state and the frame
 * count stay as they were, and the page receives nothing.
 */
async function expectRefused(cases: Array<[string, (frame: Frame) => void, RegExp]>): Promise<void> {
  // "Receiving" must not time out during the test: its end would be a message to the page.
  const server = await build({ gameReceivingTimeoutMs: 600_000 });
  const page = await connect(`${server.applicationUrl.replace('http', 'ws')}/ws?role=overlay`);
  await page.waitFor((m) => m.type === 'hello');
  const good = toCs2(await fixture(FAZE_NAVI));
  expect((await post(server, good)).status).toBe(200);
  await page.waitFor((m) => m.type === 'game' && Object.keys(m.live?.players ?? {}).length === 10);
  await server.service.store.durable();
  const before = (await get(server, '/api/state')).body.state;
  const live = server.service.game.live();
  const appends = server.service.store.counters.appends;
  const frames = server.service.game.status().frames;
  const from = page.received.length;

  // Every case is tried before the check, so that a failure lists all the frames taken.
  const taken: string[] = [];
  for (const [name, change, names] of cases) {
    const { status, body } = await post(server, await edited(change));
    const refused = status === 400 && body.ok === false && body.error === 'invalid_payload';
    if (!refused || !names.test(body.message)) taken.push(`${name}: ${status} ${JSON.stringify(body)}`);
  }
  expect(taken).toEqual([]);
  await server.service.store.durable();
  expect(server.service.store.counters.appends).toBe(appends);
  expect((await get(server, '/api/state')).body.state).toEqual(before);
  expect(server.service.game.live()).toBe(live);
  expect(server.service.game.status().frames).toBe(frames);
  // The page's next message is the answer to its ping: nothing was sent to it in between.
  page.send({ type: 'ping', id: 'after the refused frames' });
  await page.waitFor((m) => m.type === 'pong');
  expect(page.received.slice(from).map((m) => m.type)).toEqual(['pong']);
}

describe('frames beyond what the game sends', () => {
  it('are 400 invalid_payload in the envelope: nothing saved, nothing sent to the pages', async () => {
    await expectRefused(REFUSED);
  });

  it("the edges of the ranges are the game's: taken", async () => {
    const server = await build();
    const edges: Array<(frame: Frame) => void> = [
      (frame) => state(frame, 'health', 100),
      (frame) => state(frame, 'health', 0),
      (frame) => state(frame, 'money', 65_535),
      (frame) => state(frame, 'flashed', 255),
      (frame) => state(frame, 'round_totaldmg', 6_300),
      (frame) => (frame.allplayers[PLAYER].match_stats.kills = -3),
      // A coach (a side, no slot) and a caster (a slot, no side) never reach the roster.
      (frame) => {
        frame.allplayers['76561190000000001'] = { name: 'coach', team: 'CT', state: { health: 0 } };
        frame.allplayers['76561190000000002'] = {
          name: 'caster',
          team: 'SPECTATOR',
          observer_slot: frame.allplayers[PLAYER].observer_slot,
        };
      },
    ];
    for (const change of edges) expect((await post(server, await edited(change))).status).toBe(200);
    expect((await get(server, '/api/state')).body.state.roster).toHaveLength(10);
  });
});

describe('numbers no game writes (NaN, Infinity, 1e999, negatives, past any map or clock)', () => {
  it('are 400 invalid_payload in the envelope, in every kind of numeric field: nothing changes', async () => {
    await expectRefused(NOT_NUMBERS);
  });

  it('the edges of each kind are taken', async () => {
    const server = await build();
    const edges: Array<[string, (frame: Frame) => void]> = [
      ['a position of ±99,999.99', (frame) => (player(frame).position = '-99999.99, 99999.99, -0.00')],
      ['a position written without spaces or a point', (frame) => (frame.bomb.position = '1111,2460,96')],
      ['a direction of ±1', (frame) => (player(frame).forward = '-1.000, 1.00, -0.000')],
      ['a countdown of 0', (frame) => (frame.phase_countdowns.phase_ends_in = '0.0')],
      ['a countdown of 99,999.9', (frame) => (frame.phase_countdowns.phase_ends_in = '99999.9')],
      ['a countdown as a number', (frame) => (frame.bomb.countdown = 0)],
      ['a timestamp as text', (frame) => (frame.provider.timestamp = '1654689636')],
      ['the highest 32-bit version', (frame) => (frame.provider.version = 2 ** 32 - 1)],
      ['a CS2 build', (frame) => (frame.provider.version = 14093)],
    ];
    for (const [name, change] of edges) {
      const answer = await post(server, await edited(change));
      expect(answer.status, `${name}: ${JSON.stringify(answer.body)}`).toBe(200);
    }
  });

  /** The numeric text fields of the capture: where each sits, and what it holds. */
  const TEXT_FIELDS = {
    position: (frame: Frame, value: string) => (player(frame).position = value),
    bombPosition: (frame: Frame, value: string) => (frame.bomb.position = value),
    velocity: (frame: Frame, value: string) => (smoke(frame).velocity = value),
    forward: (frame: Frame, value: string) => (player(frame).forward = value),
    phaseEndsIn: (frame: Frame, value: string) => (frame.phase_countdowns.phase_ends_in = value),
    lifetime: (frame: Frame, value: string) => (smoke(frame).lifetime = value),
  };
  /** How the game writes a number: printf's %.Nf. */
  const printed = (n: number, digits: number) => n.toFixed(digits);

  it('any numbers inside the ranges, written as the game writes them, are taken (property, over HTTP)', async () => {
    const server = await build();
    const digits = fc.integer({ min: 0, max: 3 });
    const coordinate = fc.tuple(fc.double({ min: -99_999, max: 99_999, noNaN: true }), digits);
    const component = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), digits);
    const seconds = fc.tuple(fc.double({ min: 0, max: 99_999, noNaN: true }), digits);
    const triple = (part: typeof coordinate) =>
      fc.tuple(part, part, part).map((parts) => parts.map(([n, d]) => printed(n, d)).join(', '));
    const once = (part: typeof coordinate) => part.map(([n, d]) => printed(n, d));
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          position: triple(coordinate),
          bombPosition: triple(coordinate),
          velocity: triple(coordinate),
          forward: triple(component),
          phaseEndsIn: once(seconds),
          lifetime: once(seconds),
        }),
        async (values) => {
          const frame = await edited((frame) => {
            for (const [field, value] of Object.entries(values)) {
              TEXT_FIELDS[field as keyof typeof TEXT_FIELDS](frame, value);
            }
          });
          const answer = await post(server, frame);
          expect(answer.status, JSON.stringify([values, answer.body])).toBe(200);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('any number outside them, or no number at all, in any of those fields is refused (property, over HTTP)', async () => {
    const server = await build();
    const VECTORS = new Set(['position', 'bombPosition', 'velocity', 'forward']);
    const notANumber = fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e999', '1e5', '0x10', '', ' ');
    const past = fc.double({ min: 100_000, noDefaultInfinity: true, noNaN: true });
    const outside = fc.oneof(
      notANumber,
      past.map((n) => printed(n, 1)),
      past.map((n) => printed(-n, 1)),
    );
    // A countdown below 0 too; a vector with one bad number among good ones.
    const badValue = (name: keyof typeof TEXT_FIELDS) =>
      VECTORS.has(name)
        ? fc.tuple(outside, fc.nat(2)).map(([value, at]) => ['0.5', '0.5', '0.5'].with(at, value).join(', '))
        : fc.oneof(
            outside,
            fc.double({ min: -99_999, max: -0.1, noNaN: true }).map((n) => printed(n, 1)),
          );
    const fieldAndValue = fc
      .constantFrom(...(Object.keys(TEXT_FIELDS) as Array<keyof typeof TEXT_FIELDS>))
      .chain((name) => fc.tuple(fc.constant(name), badValue(name)));
    await fc.assert(
      fc.asyncProperty(fieldAndValue, async ([name, value]) => {
        const answer = await post(server, await edited((frame) => TEXT_FIELDS[name](frame, value)));
        expect([answer.status, answer.body.error], JSON.stringify([name, value])).toEqual([
          400,
          'invalid_payload',
        ]);
      }),
      { numRuns: 60 },
    );
  });
});

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** Every captured frame of test/fixtures, in CS:GO's numbering and CS2's. */
async function capturedFrames(): Promise<Array<[string, Frame]>> {
  const names = (await readdir(FIXTURES)).filter((name) => name.startsWith('gsi_') && name.endsWith('.json'));
  const frames: Array<[string, Frame]> = [];
  for (const name of names) {
    const data = await fixture(name);
    for (const [i, frame] of (Array.isArray(data) ? data : [data]).entries()) {
      frames.push([`${name} #${i}`, frame], [`${name} #${i} (CS2)`, toCs2(frame)]);
    }
  }
  return frames;
}

describe('what the game sends stays accepted', () => {
  it('every captured frame, as CS:GO sent it and as CS2 numbers it', async () => {
    const server = await build();
    const frames = await capturedFrames();
    expect(frames.length).toBeGreaterThanOrEqual(30);
    for (const [name, frame] of frames) expect((await post(server, frame)).status, name).toBe(200);
  });

  it('a capture with any values inside the ranges is taken (property, over HTTP)', async () => {
    const server = await build();
    const frames = (await capturedFrames()).map(([, frame]) => frame);
    const inRange = fc.record({
      health: fc.integer({ min: 0, max: 100 }),
      armor: fc.integer({ min: 0, max: 100 }),
      flashed: fc.integer({ min: 0, max: 255 }),
      smoked: fc.integer({ min: 0, max: 255 }),
      burning: fc.integer({ min: 0, max: 255 }),
      money: fc.integer({ min: 0, max: 65_535 }),
      equip_value: fc.integer({ min: 0, max: 65_535 }),
      round_kills: fc.integer({ min: 0, max: 63 }),
      round_killhs: fc.integer({ min: 0, max: 63 }),
      round_totaldmg: fc.integer({ min: 0, max: 6_300 }),
    });
    const stats = fc.record({
      kills: fc.integer({ min: -99_999, max: 99_999 }),
      deaths: fc.integer({ min: 0, max: 99_999 }),
      assists: fc.integer({ min: 0, max: 99_999 }),
      mvps: fc.integer({ min: 0, max: 99_999 }),
      score: fc.integer({ min: -99_999, max: 99_999 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.nat(frames.length - 1),
        fc.array(fc.tuple(fc.nat(9), inRange, stats), { maxLength: 10 }),
        fc.integer({ min: 0, max: 999 }),
        async (index, edits, round) => {
          const frame = structuredClone(frames[index]) as Frame;
          const players = Object.values<Frame>(frame.allplayers ?? {});
          for (const [which, values, matchStats] of edits) {
            const player = players[which % Math.max(1, players.length)];
            if (!player) continue;
            player.state = { ...player.state, ...values };
            player.match_stats = { ...player.match_stats, ...matchStats };
          }
          if (frame.map) frame.map.round = round;
          const answer = await post(server, frame);
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        },
      ),
      { numRuns: 60 },
    );
  });
});
