/**
 * The schemas cover every field the buttons read: a hello or an event with any one field missing or
 * of another type is either refused (with the place where it differs) or, when the module does not
 * need that field, taken, and then the variables and feedbacks read it without throwing.
 */
import { describe, expect, it } from 'vitest';
import { feedbackDefinitions } from '../src/feedbacks.ts';
import { applyEvent, applyGame, emptyGameView } from '../src/hud-state.ts';
import { readServerMessage, type Snapshot } from '../src/server-messages.ts';
import { variableValues } from '../src/variables.ts';
import { goodSnapshot } from './helpers/stand-in-server.ts';

/** Every opt-in group of variables on: the tests read them all. */
const ALL_GROUPS = { variablesGame: true, variablesPlayers: true };

const STRANGERS: unknown[] = [undefined, null, 0, -1.5, '', 'x', true, [], {}, [{}], { name: 1 }];

/** A fuller snapshot than the stand-in's: a running veto, a map played, the observer's status. */
function richSnapshot(): Record<string, any> {
  const snapshot: Record<string, any> = goodSnapshot(4);
  snapshot.state.roster = [{ slot: 3, name: 'ZywOo' }];
  snapshot.state.obs = { connection: 'connected', replayBufferActive: true };
  snapshot.match.teamA.tag = 'VIT';
  snapshot.match.maps = [
    { number: 1, map: 'de_nuke', label: 'Nuke', finished: true, scoreA: 13, scoreB: 9, winner: 'Vitality' },
  ];
  snapshot.veto = {
    active: true,
    complete: false,
    nextStep: { type: 'ban', team: 'B' },
    remainingMaps: ['de_mirage', 'de_inferno'],
    teamA: { name: 'Vitality' },
    teamB: { name: 'MOUZ' },
  };
  snapshot.observer = {
    enabled: true,
    mode: 'auto',
    cinematicEnabled: false,
    link: { connection: 'connected' },
    suggestion: { slot: 3, name: 'ZywOo' },
  };
  return snapshot;
}

/** Every path to a value in `value`, objects and arrays included. */
function paths(value: unknown, at: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [at];
  return [at, ...Object.entries(value).flatMap(([key, child]) => paths(child, [...at, key]))];
}

/** `value` with the thing at `path` replaced by `stranger` (removed when undefined). */
function replaced(value: unknown, path: string[], stranger: unknown): unknown {
  const copy = structuredClone(value) as Record<string, any>;
  if (path.length === 0) return stranger;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key];
  const last = path.at(-1) as string;
  if (stranger === undefined) delete parent[last];
  else parent[last] = stranger;
  return copy;
}

function readAll(snapshot: Snapshot): void {
  const game = applyGame(emptyGameView(), { type: 'game', full: true, live: { observed: { slot: 3 } } });
  variableValues(snapshot, game, 'ok', ALL_GROUPS);
  const feedbacks = feedbackDefinitions({
    snapshot: () => snapshot,
    game: () => game,
    connected: () => true,
    refusedFlash: () => false,
  });
  for (const feedback of Object.values(feedbacks)) {
    if (!feedback) continue;
    const options = Object.fromEntries(
      (feedback.options as Array<{ id: string; default?: unknown }>).map((option) => [
        option.id,
        option.default,
      ]),
    );
    (feedback.callback as (event: unknown) => unknown)({ options, controlId: 'bank:1' });
  }
}

const frame = (message: unknown) => Buffer.from(JSON.stringify(message) ?? 'undefined');

describe('a hello', () => {
  it('with any one field missing or of another type is refused, or read without throwing', () => {
    const good = { type: 'hello', snapshot: richSnapshot() };
    let refused = 0;
    for (const path of paths(good)) {
      for (const stranger of STRANGERS) {
        const message = readServerMessage(frame(replaced(good, path, stranger)), false);
        if ('problem' in message) {
          refused++;
          expect(message.problem).toMatch(
            /^(its hello|a message) does not match protocol 1 \(\/.*: .+\)$|^a message that is not JSON$/,
          );
        } else if (message.type === 'hello') readAll(message.snapshot);
      }
    }
    expect(refused).toBeGreaterThan(100);
  });

  it('that is whole is taken as it is', () => {
    const message = readServerMessage(frame({ type: 'hello', snapshot: richSnapshot() }), false);
    expect(message).toMatchObject({ type: 'hello', snapshot: { revision: 4 } });
  });
});

describe('an event', () => {
  const base = richSnapshot() as Snapshot;
  const events: Record<string, unknown> = {
    'hud.state': { scoreboardVisible: false, senScene: 'versus', obs: base.state.obs },
    host: { mainWindowOpen: false },
    match: base.match,
    'veto.session': base.veto,
    'veto.reveal': { revealed: 1, total: 7, instant: false },
    production: base.production,
    presets: { activePresetId: 'default' },
    observer: base.observer,
  };

  it.each(Object.entries(events))(
    '(%s) with any one field of its data changed is refused, or applied and read without throwing',
    (event, data) => {
      const good = { type: 'event', event, revision: 5, data };
      for (const path of paths(good)) {
        for (const stranger of STRANGERS) {
          const message = readServerMessage(frame(replaced(good, path, stranger)), false);
          if ('problem' in message) expect(message.problem).toMatch(/does not match protocol 1|not JSON/);
          else if (message.type === 'event') readAll(applyEvent(base, message).snapshot);
        }
      }
    },
  );

  it('that the buttons do not follow passes whatever its data', () => {
    const message = readServerMessage(
      frame({ type: 'event', event: 'replay.saved', revision: 5, data: 'anything' }),
      false,
    );
    expect(message).toMatchObject({ type: 'event', event: 'replay.saved' });
  });
});

describe('a frame', () => {
  it('in binary is refused', () => {
    expect(readServerMessage(frame({ type: 'hello' }), true)).toEqual({
      problem: 'a binary message (the protocol sends text)',
    });
  });

  it('whose path names a long key is cut to one short line', () => {
    const players = { ['7'.repeat(10_000)]: 5 };
    const message = readServerMessage(frame({ type: 'game', live: { players } }), false);
    expect('problem' in message && message.problem.length).toBeLessThan(250);
  });
});
