import type { UndoableState } from '../../../machines/history.machine.ts';
import { undoableStateOf } from '../../../machines/history.machine.ts';
import { conflict } from '../../protocol/errors.ts';
import type { HudSystem } from '../hud-system.ts';
import type { AnyCommand, CommandContext } from './command.ts';
import { defineCommand } from './command.ts';

/** The match, the session and the reveal as the actors hold them now (their systemIds are their keys). */
const undoableNow = (hud: HudSystem): UndoableState =>
  undoableStateOf({ get: (id) => hud.actor(id as 'match' | 'vetoSession' | 'vetoReveal') });

/**
 * Runs a change of the match or the veto and records it in the undo history under `label` (words a
 * crew reads). The history compares the state before with the state after: a change of nothing is
 * not recorded. The record is part of the command's batch, so the change and its entry are one revision.
 */
export function recorded<T>(context: CommandContext, label: string, change: () => T): T {
  const before = undoableNow(context.hud);
  const result = change();
  recordChange(context.hud, label, before);
  return result;
}

/** Records a change already made, from the state before it to the state the actors hold now. */
export function recordChange(hud: HudSystem, label: string, before: UndoableState): void {
  const after = undoableNow(hud);
  hud.send('history', { type: 'history.record', label, at: new Date().toISOString(), before, after });
}

const undo = defineCommand('undo', {
  run: ({ hud }) => {
    const [last] = hud.snapshot('history').context.undo;
    if (!last) throw conflict('nothing to undo: no change of the match or the veto since the history began');
    hud.send('history', { type: 'history.undo', now: undoableNow(hud) });
    return { undone: { label: last.label, at: last.at } };
  },
});

const redo = defineCommand('redo', {
  run: ({ hud }) => {
    const [last] = hud.snapshot('history').context.redo;
    if (!last) throw conflict('nothing to redo: no change was undone since the last change');
    hud.send('history', { type: 'history.redo', now: undoableNow(hud) });
    return { redone: { label: last.label, at: last.at } };
  },
});

export const historyCommands: AnyCommand[] = [undo, redo];
