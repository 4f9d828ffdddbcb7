import { assign, enqueueActions, setup } from 'xstate';
import type { MatchInput } from './match.machine.ts';
import { MATCH_DEFAULTS } from './match.machine.ts';
import { SYSTEM_ID } from './system-ids.ts';
import type { VetoRevealInput } from './veto-reveal.machine.ts';
import { REVEAL_DEFAULTS } from './veto-reveal.machine.ts';
import type { VetoSession } from './veto-session.machine.ts';
import { HISTORY_BOUND } from './vocabulary.ts';

type MatchPart = Omit<MatchInput, 'logos'>;

/**
 * What the crew sets of the match and the veto: the match (its logo statuses aside: they follow the
 * logos in use), the manual veto session and the reveal.
 */
export interface UndoableState {
  match: MatchPart;
  session: VetoSession | null;
  reveal: VetoRevealInput;
}

/**
 * The part of it one change touched, as it was: only the fields that changed, so an undo leaves what
 * changed since elsewhere (the sides and scores the game data sets on other fields) as it is.
 */
export interface UndoablePart {
  match: Partial<MatchPart>;
  /** Absent: the change left the session as it was. */
  session?: VetoSession | null;
  reveal: Partial<VetoRevealInput>;
}

/** One change the crew made: what it was, when, and the part to go back to (undo) or forward to (redo). */
export interface HistoryRecord {
  label: string;
  at: string;
  state: UndoablePart;
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

function changedFields<T extends object>(before: T, after: T): Partial<T> {
  const part: Partial<T> = {};
  for (const key of Object.keys(before) as Array<keyof T>) {
    if (!same(before[key], after[key])) part[key] = before[key];
  }
  return part;
}

/** What a change touched, as it was before it; null when it changed nothing. */
export function changedPart(before: UndoableState, after: UndoableState): UndoablePart | null {
  const match = changedFields(before.match, after.match);
  const reveal = changedFields(before.reveal, after.reveal);
  const sessionChanged = !same(before.session, after.session);
  if (Object.keys(match).length === 0 && Object.keys(reveal).length === 0 && !sessionChanged) return null;
  return sessionChanged ? { match, session: before.session, reveal } : { match, reveal };
}

/** The same fields as `part`, with the values they have now: what redo (or undo) brings back. */
function sameFieldsOf(part: UndoablePart, now: UndoableState): UndoablePart {
  const pick = <T extends object>(fields: Partial<T>, from: T): Partial<T> =>
    Object.fromEntries(Object.keys(fields).map((key) => [key, from[key as keyof T]])) as Partial<T>;
  const match = pick(part.match, now.match);
  const reveal = pick(part.reveal, now.reveal);
  return 'session' in part ? { match, session: now.session, reveal } : { match, reveal };
}

export interface HistoryInput {
  /** Most recent first. */
  undo: HistoryRecord[];
  redo: HistoryRecord[];
}

export const HISTORY_DEFAULTS: HistoryInput = { undo: [], redo: [] };

export type HistoryEvent =
  /**
   * A change was made: `before` is the state it started from (the actors hold the state after it
   * when this arrives). A change of nothing is not recorded; a new change empties redo.
   */
  | { type: 'history.record'; label: string; at: string; before: UndoableState; after: UndoableState }
  /** `now`: the state the actors hold, of which redo (or undo, after a redo) keeps what it replaces. */
  | { type: 'history.undo'; now: UndoableState }
  | { type: 'history.redo'; now: UndoableState };

/** The events that put an earlier part back, sent by systemId to the actors that own it. */
export type MatchRestoreEvent = { type: 'match.restore'; state: Partial<MatchPart> };
export type SessionRestoreEvent = { type: 'veto.restore'; session: VetoSession | null };
export type RevealRestoreEvent = { type: 'veto.reveal.restore'; reveal: Partial<VetoRevealInput> };

type Readable = { getSnapshot(): { context: unknown } } | undefined;
type SystemReads = { get(id: string): Readable };

/** The undoable state as the actors hold it now; an actor not running (a machine tested alone) reads as its defaults. */
export function undoableStateOf(system: SystemReads): UndoableState {
  const contextOf = <T>(id: string, fallback: T) => (system.get(id)?.getSnapshot().context as T) ?? fallback;
  const { logos: _logos, ...match } = contextOf<MatchInput>(SYSTEM_ID.match, MATCH_DEFAULTS);
  const { session } = contextOf<{ session: VetoSession | null }>(SYSTEM_ID.vetoSession, { session: null });
  return { match, session, reveal: contextOf<VetoRevealInput>(SYSTEM_ID.vetoReveal, REVEAL_DEFAULTS) };
}

const bounded = (records: HistoryRecord[]) => records.slice(0, HISTORY_BOUND);

/**
 * The crew's undo history of the match and the veto. A command records each change with the state
 * before and after it (only the fields it touched are kept); undo puts those fields back in the
 * actors that own them and keeps what they replaced for redo, in the same step, so an undo is one
 * revision.
 */
export const historyMachine = setup({
  types: {} as { context: HistoryInput; input: HistoryInput; events: HistoryEvent },
  guards: {
    changesSomething: ({ event }) =>
      event.type === 'history.record' && changedPart(event.before, event.after) !== null,
    canUndo: ({ context }) => context.undo.length > 0,
    canRedo: ({ context }) => context.redo.length > 0,
  },
  actions: {
    // A change of nothing leaves the history the same object: no revision, no write.
    recordChange: assign(({ context, event }) => {
      if (event.type !== 'history.record') return {};
      const { label, at, before, after } = event;
      const state = changedPart(before, after) as UndoablePart;
      return { undo: bounded([{ label, at, state }, ...context.undo]), redo: [] };
    }),
    stepBack: enqueueActions(({ context, event, enqueue }) => {
      const [record, ...rest] = context.undo;
      if (!record || event.type !== 'history.undo') return;
      const now = { ...record, state: sameFieldsOf(record.state, event.now) };
      enqueue.assign({ undo: rest, redo: bounded([now, ...context.redo]) });
      for (const [id, restore] of restoreEvents(record.state)) {
        enqueue.sendTo(({ system }) => system.get(id), restore);
      }
    }),
    stepForward: enqueueActions(({ context, event, enqueue }) => {
      const [record, ...rest] = context.redo;
      if (!record || event.type !== 'history.redo') return;
      const now = { ...record, state: sameFieldsOf(record.state, event.now) };
      enqueue.assign({ redo: rest, undo: bounded([now, ...context.undo]) });
      for (const [id, restore] of restoreEvents(record.state)) {
        enqueue.sendTo(({ system }) => system.get(id), restore);
      }
    }),
  },
}).createMachine({
  id: 'history',
  context: ({ input }) => input,
  initial: 'ready',
  states: {
    ready: {
      description: 'Keeps the last changes of the match and the veto, each way; undo and redo restore them',
      on: {
        'history.record': { guard: 'changesSomething', actions: 'recordChange' },
        'history.undo': { guard: 'canUndo', actions: 'stepBack' },
        'history.redo': { guard: 'canRedo', actions: 'stepForward' },
      },
    },
  },
});

/** The events that put `state` back, each to the actor that owns its part. */
function restoreEvents(
  state: UndoablePart,
): Array<[string, MatchRestoreEvent | SessionRestoreEvent | RevealRestoreEvent]> {
  const events: Array<[string, MatchRestoreEvent | SessionRestoreEvent | RevealRestoreEvent]> = [
    [SYSTEM_ID.match, { type: 'match.restore', state: state.match }],
    [SYSTEM_ID.vetoReveal, { type: 'veto.reveal.restore', reveal: state.reveal }],
  ];
  if ('session' in state) {
    events.push([SYSTEM_ID.vetoSession, { type: 'veto.restore', session: state.session ?? null }]);
  }
  return events;
}
