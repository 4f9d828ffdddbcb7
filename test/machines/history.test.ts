import { afterEach, describe, expect, it } from 'vitest';
import type { Actor } from 'xstate';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { HistoryEvent, HistoryInput, UndoableState } from '../../machines/history.machine.ts';
import { changedPart, HISTORY_DEFAULTS, historyMachine } from '../../machines/history.machine.ts';
import { MATCH_DEFAULTS } from '../../machines/match.machine.ts';
import { REVEAL_DEFAULTS } from '../../machines/veto-reveal.machine.ts';
import { HISTORY_BOUND } from '../../machines/vocabulary.ts';
import { pathName, walk } from '../helpers/model.ts';

const { logos: _logos, ...MATCH } = MATCH_DEFAULTS;
/** Three states of the match as the crew changes the event name: S0 → S1 → S2. */
const stateNamed = (eventName: string): UndoableState => ({
  match: { ...MATCH, eventName },
  session: null,
  reveal: { ...REVEAL_DEFAULTS },
});
const S = [stateNamed(''), stateNamed('One'), stateNamed('Two')] as const;

const RECORD: HistoryEvent = {
  type: 'history.record',
  label: 'Event name: One',
  at: '2026-11-28T19:00:00.000Z',
  before: S[0],
  after: S[1],
};
const NOTHING: HistoryEvent = {
  type: 'history.record',
  label: 'Event name: One',
  at: '2026-11-28T19:00:01.000Z',
  before: S[1],
  after: S[1],
};
const UNDO: HistoryEvent = { type: 'history.undo', now: S[1] };
const REDO: HistoryEvent = { type: 'history.redo', now: S[0] };

const actors: Array<Actor<typeof historyMachine>> = [];
afterEach(() => {
  for (const actor of actors.splice(0)) actor.stop();
});
const start = (input: HistoryInput = HISTORY_DEFAULTS) => {
  const actor = createActor(historyMachine, { input });
  actors.push(actor);
  actor.start();
  return actor;
};

/** What the history should hold after an event, from the rules: most recent first, a new change empties redo. */
function expected(before: HistoryInput, event: HistoryEvent): HistoryInput {
  if (event.type === 'history.record') {
    const part = changedPart(event.before, event.after);
    if (!part) return before;
    return {
      undo: [{ label: event.label, at: event.at, state: part }, ...before.undo].slice(0, HISTORY_BOUND),
      redo: [],
    };
  }
  const [from, to] =
    event.type === 'history.undo' ? (['undo', 'redo'] as const) : (['redo', 'undo'] as const);
  const [record, ...rest] = before[from];
  if (!record) return before;
  const now = { ...record, state: { match: { eventName: event.now.match.eventName }, reveal: {} } };
  return { [from]: rest, [to]: [now, ...before[to]] } as unknown as HistoryInput;
}

describe('historyMachine, model-based', () => {
  // At most three changes deep: every order of record, undo and redo within it.
  // The context is the state here (one state node): the key is what undo and redo hold.
  const model = createTestModel(historyMachine, {
    input: HISTORY_DEFAULTS,
    events: (snapshot) =>
      snapshot.context.undo.length >= 3 ? [UNDO, REDO, NOTHING] : [RECORD, UNDO, REDO, NOTHING],
    serializeState: (snapshot) => JSON.stringify(snapshot.context),
  });
  const paths = model.getShortestPaths();

  it('walks records, undos and redos up to three deep', () => {
    // Paths that are the start of a longer one are left out: every state is a step of some path.
    const reached = paths.flatMap((path) => path.steps.map((step) => step.state.context));
    const depths = new Set(reached.map((context) => context.undo.length + context.redo.length));
    expect(depths).toEqual(new Set([0, 1, 2, 3]));
    expect(reached.some((context) => context.redo.length === 3)).toBe(true);
    expect(reached.some((context) => context.undo.length === 1 && context.redo.length === 2)).toBe(true);
  });

  for (const [index, path] of paths.entries()) {
    it(`path ${index}: ${pathName(path, (event) => event.type.replace('history.', ''))}`, async () => {
      let actor: Actor<typeof historyMachine> | undefined;
      await walk(path, {
        start: () => {
          actor = start();
        },
        send: (event) => {
          const history = actor as Actor<typeof historyMachine>;
          const before = history.getSnapshot().context;
          history.send(event as HistoryEvent);
          expect(history.getSnapshot().context).toEqual(expected(before, event as HistoryEvent));
        },
        check: (state) => {
          expect((actor as Actor<typeof historyMachine>).getSnapshot().context).toEqual(state.context);
        },
      });
    });
  }
});

describe('historyMachine, what a record keeps', () => {
  it('only the fields a change touched, as they were: the sides the game data set since stay out of it', () => {
    const after = { ...S[1], match: { ...S[1].match, teamASide: 'T' as const } };
    expect(changedPart(S[0], after)).toEqual({ match: { eventName: '', teamASide: 'CT' }, reveal: {} });
    expect(changedPart(S[0], S[1])).toEqual({ match: { eventName: '' }, reveal: {} });
    expect(changedPart(S[1], S[1])).toBeNull();
    // A session started (or ended) is recorded whole, null included.
    const withSession = {
      ...S[1],
      session: {
        boFormat: 'bo1' as const,
        firstBanner: 'A' as const,
        pool: ['de_nuke', 'de_mirage'],
        steps: [],
      },
    };
    expect(changedPart(S[1], withSession)).toEqual({ match: {}, session: null, reveal: {} });
  });

  it(`keeps ${HISTORY_BOUND} changes each way: the oldest goes first`, () => {
    const actor = start();
    for (let n = 0; n < HISTORY_BOUND + 5; n++) {
      actor.send({
        ...RECORD,
        label: `change ${n}`,
        before: stateNamed(`${n}`),
        after: stateNamed(`${n + 1}`),
      } as HistoryEvent);
    }
    const { undo } = actor.getSnapshot().context;
    expect(undo).toHaveLength(HISTORY_BOUND);
    expect(undo[0]?.label).toBe(`change ${HISTORY_BOUND + 4}`);
    expect(undo.at(-1)?.label).toBe('change 5');
  });
});
