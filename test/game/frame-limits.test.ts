/**
 * Game data within what the game sends (docs/game-data.md, "What a frame may hold"): real captures
 * edited past the game's ranges (a 510-entry allplayers, two players in one slot, health of
 * -1,000,000 …) are 400 invalid_payload in the envelope, nothing is saved and nothing reaches the
 * pages; the real captures, and the captures with any values inside the ranges, are taken.
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

const post = (server: RunningServer, frame: Frame) =>
  postFrame(server.applicationPort, withToken(frame, server.service.game.token));

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

describe('frames beyond what the game sends', () => {
  it('are 400 invalid_payload in the envelope: nothing saved, nothing sent to the pages', async () => {
    // "Receiving" must not time out during the test: its end would be a message to the page.
    const server = await build({ gameReceivingTimeoutMs: 600_000 });
    const page = await connect(`${server.applicationUrl.replace('http', 'ws')}/ws?role=overlay`);
    await page.waitFor((m) => m.type === 'hello');
    const good = toCs2(await fixture(FAZE_NAVI));
    expect((await post(server, good)).status).toBe(200);
    await page.waitFor((m) => m.type === 'game' && Object.keys(m.live?.players ?? {}).length === 10);
    await server.service.store.durable();
    const before = (await get(server, '/api/state')).body.state;
    const appends = server.service.store.counters.appends;
    const frames = server.service.game.status().frames;
    const from = page.received.length;

    for (const [name, change, names] of REFUSED) {
      const answer = await post(server, await edited(change));
      expect([answer.status, answer.body.ok, answer.body.error], name).toEqual([
        400,
        false,
        'invalid_payload',
      ]);
      expect(answer.body.message, name).toMatch(names);
    }
    await server.service.store.durable();
    expect(server.service.store.counters.appends).toBe(appends);
    expect((await get(server, '/api/state')).body.state).toEqual(before);
    expect(server.service.game.status().frames).toBe(frames);
    // The page's next message is the answer to its ping: nothing was sent to it in between.
    page.send({ type: 'ping', id: 'after the refused frames' });
    await page.waitFor((m) => m.type === 'pong');
    expect(page.received.slice(from).map((m) => m.type)).toEqual(['pong']);
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
