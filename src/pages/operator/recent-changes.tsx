/**
 * The crew's undo history as the operator app shows it (issue 33): the last changes of the match
 * and the veto with Undo and Redo, and a toast naming each change as it happens, with Undo. Both
 * read the HUD state's `history` (the server's list, so a change from a Stream Deck shows too) and
 * run the `undo` and `redo` commands.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { HistoryEntry } from '../../protocol/index.ts';
import { state } from '../common/store.ts';
import { Card, ErrorText, useCommand } from './ui.tsx';

/** How long a toast stays: long enough to reach for Undo, short enough not to pile up. */
const TOAST_MS = 8_000;
/** How many changes the card lists (the history keeps 20). */
const SHOWN = 6;

const timeOf = (at: string) =>
  new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** The last changes with Undo and Redo: in the Match view, and (at merge) on the Live page. */
export function RecentChanges() {
  const history = state.value?.history ?? { undo: [], redo: [] };
  const undo = useCommand();
  const redo = useCommand();
  const [last] = history.undo;
  const [next] = history.redo;
  return (
    <Card
      title="Recent changes"
      hook="recent-changes"
      actions={
        <>
          <button
            type="button"
            class="btn btn--small"
            disabled={!last}
            aria-busy={undo.busy.value}
            title={last ? `Undo: ${last.label}` : 'Nothing to undo'}
            data-action="undo"
            onClick={() => void undo.run('undo')}
          >
            ↶ Undo
          </button>
          <button
            type="button"
            class="btn btn--small"
            disabled={!next}
            aria-busy={redo.busy.value}
            title={next ? `Redo: ${next.label}` : 'Nothing to redo'}
            data-action="redo"
            onClick={() => void redo.run('redo')}
          >
            ↷ Redo
          </button>
        </>
      }
    >
      {history.undo.length === 0 ? (
        <p class="muted">
          No change yet. Every change of the match and the veto shows here and can be undone.
        </p>
      ) : (
        <ol class="changes" data-changes="undo">
          {history.undo.slice(0, SHOWN).map((entry, index) => (
            <li class="changes__item" data-history-entry={index} key={`${entry.at}-${entry.label}`}>
              <time class="changes__time" dateTime={entry.at}>
                {timeOf(entry.at)}
              </time>
              <span class="changes__label">{entry.label}</span>
              {index === 0 ? <span class="changes__next">Undo takes this back</span> : null}
            </li>
          ))}
        </ol>
      )}
      {next ? (
        <p class="muted changes__redo" data-changes="redo">
          Redo: {next.label}
        </p>
      ) : null}
      <ErrorText message={undo.error.value ?? redo.error.value} />
    </Card>
  );
}

const sameEntry = (a: HistoryEntry | undefined, b: HistoryEntry | undefined) =>
  a?.at === b?.at && a?.label === b?.label;

/**
 * A toast for each new change, with Undo: whoever made it (this desk, a Stream Deck, a program).
 * What is on the list when the page opens is not new.
 */
export function ChangeToast() {
  const latest = state.value?.history.undo[0];
  const seen = useSignal<HistoryEntry | undefined | null>(null);
  const shown = useSignal<HistoryEntry | null>(null);
  const undo = useCommand();
  useEffect(() => {
    if (!state.value) return;
    if (seen.value === null) {
      seen.value = latest;
      return;
    }
    if (sameEntry(seen.value, latest)) return;
    // A new entry on top is a change; one that went away is an undo (its own feedback is the list).
    const isNew = latest !== undefined && (seen.value === undefined || latest.at >= seen.value.at);
    seen.value = latest;
    shown.value = isNew ? latest : null;
  }, [latest?.at, latest?.label, state.value === null]);
  useEffect(() => {
    if (!shown.value) return;
    const entry = shown.value;
    const timer = setTimeout(() => {
      if (shown.value === entry) shown.value = null;
    }, TOAST_MS);
    return () => clearTimeout(timer);
  }, [shown.value]);
  const entry = shown.value;
  return (
    <div class="toast-area" role="status" aria-live="polite">
      {entry ? (
        <div class="toast" data-toast="change">
          <span class="toast__label">{entry.label}</span>
          <button
            type="button"
            class="btn btn--small"
            data-action="toast-undo"
            aria-busy={undo.busy.value}
            onClick={async () => {
              const result = await undo.run('undo');
              if (result.ok) shown.value = null;
            }}
          >
            Undo
          </button>
          <button
            type="button"
            class="btn btn--small btn--plain"
            aria-label="Dismiss"
            onClick={() => (shown.value = null)}
          >
            ✕
          </button>
          <ErrorText message={undo.error.value} />
        </div>
      ) : null}
    </div>
  );
}
