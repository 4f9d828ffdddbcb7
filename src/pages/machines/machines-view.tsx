/**
 * The Machines view (docs/machines-view.md): the actors, the selected one's chart live or replayed,
 * its context on demand, and the timeline of the last events with their sources. Shown in the
 * operator app's Machines tab and alone on /machines. Read-only: it sends no command.
 */
import { useEffect } from 'preact/hooks';
import type { StreamedEntry } from '../../protocol/machines-view-stream.ts';
import { Chart } from './chart.tsx';
import {
  actors,
  chartError,
  charts,
  context,
  link,
  loadActors,
  loadContext,
  onlySelected,
  openStream,
  paused,
  refreshTimeline,
  replay,
  replayAt,
  select,
  selected,
  selectedEntries,
  setPaused,
  shown,
  step,
  timeline,
} from './machines-store.ts';
import './machines.css';

const clock = (at: number) => new Date(at).toLocaleTimeString(undefined, { hour12: false });

function payloadText(payload: unknown): string {
  if (payload === null || payload === undefined) return '';
  const text = JSON.stringify(payload);
  return text === '{}' ? '' : text;
}

function ActorList() {
  return (
    <nav class="machines-actors" aria-label="Actors">
      {actors.value.map((info) => (
        <button
          type="button"
          key={info.actor}
          class="machines-actor"
          aria-pressed={selected.value === info.actor}
          data-actor={info.actor}
          onClick={() => select(info.actor)}
          title={`machine ${info.machineId}`}
        >
          {info.systemId}
        </button>
      ))}
    </nav>
  );
}

function ReplayBar() {
  const entries = selectedEntries.value;
  const at = replayAt.value;
  const entry = at === null ? null : entries[at];
  return (
    <div class="machines-replay" data-replay={at === null ? 'off' : 'on'}>
      <button
        type="button"
        class="btn btn--small"
        data-action="step-back"
        disabled={entries.length === 0 || at === 0}
        onClick={() => step(-1)}
      >
        ◀ Step back
      </button>
      <button
        type="button"
        class="btn btn--small"
        data-action="step-forward"
        disabled={at === null || at >= entries.length - 1}
        onClick={() => step(1)}
      >
        Step forward ▶
      </button>
      <button
        type="button"
        class="btn btn--small"
        data-action="live"
        disabled={at === null}
        onClick={() => replay(null)}
      >
        Live
      </button>
      <span class="machines-replay__where" data-replay-step={at ?? ''} role="status">
        {entry
          ? `Replay: step ${(at ?? 0) + 1} of ${entries.length}, ${entry.event} at ${clock(entry.at)} (read-only)`
          : `Live: ${entries.length} events recorded since the view opened`}
      </span>
    </div>
  );
}

function ChartPanel() {
  const chart = charts.value[selected.value];
  const { active, taken } = shown.value;
  return (
    <section class="machines-chart" aria-label="State chart" data-chart-panel={selected.value}>
      <ReplayBar />
      {chartError.value ? (
        <p class="banner" role="alert">
          {chartError.value}
        </p>
      ) : null}
      <div class="machines-chart__scroll">
        {chart ? (
          <Chart chart={chart} active={active} taken={taken} />
        ) : (
          <p class="muted" role="status">
            Laying the chart out…
          </p>
        )}
      </div>
      <div class="machines-context">
        <button
          type="button"
          class="btn btn--small"
          data-action="context"
          onClick={() => void loadContext(selected.value)}
        >
          Show context
        </button>
        {context.value && context.value.actor === selected.value ? (
          <pre data-context={context.value.actor}>{context.value.text}</pre>
        ) : null}
      </div>
    </section>
  );
}

function Entry({ entry }: { entry: StreamedEntry }) {
  const mine = entry.actor === selected.value;
  const index = mine ? selectedEntries.value.indexOf(entry) : -1;
  return (
    <li
      class={entry.changed ? 'machines-entry' : 'machines-entry machines-entry--ignored'}
      data-entry={entry.seq}
      data-entry-actor={entry.actor}
      data-event={entry.event}
      data-source={entry.source}
      data-replayed={mine && replayAt.value === index ? 'yes' : 'no'}
    >
      <span class="machines-entry__time">{clock(entry.at)}</span>
      <span class="machines-entry__actor">{entry.actor}</span>
      <strong class="machines-entry__event">{entry.event}</strong>
      <span class="machines-entry__source">
        {entry.source}
        {entry.from ? ` · ${entry.from}` : ''}
      </span>
      <code class="machines-entry__payload" title={payloadText(entry.payload)}>
        {payloadText(entry.payload)}
      </code>
      {entry.unsent > 0 ? (
        // Thinned by the server while this actor is not the one shown: counted, not hidden.
        <span class="machines-entry__unsent" data-unsent={entry.unsent}>
          {entry.unsent} more {entry.actor} {entry.unsent === 1 ? 'event' : 'events'} from game frames since
          the one before, not sent here: choose {entry.actor} to see every one
        </span>
      ) : null}
      {mine && index >= 0 ? (
        <button type="button" class="btn btn--small btn--plain" onClick={() => replay(index)}>
          Chart at this step
        </button>
      ) : null}
    </li>
  );
}

function Timeline() {
  const entries = timeline.value.filter((entry) => !onlySelected.value || entry.actor === selected.value);
  return (
    <section class="machines-timeline" aria-label="Timeline">
      <div class="machines-timeline__bar">
        <h2>Last events</h2>
        <button
          type="button"
          class="btn btn--small"
          data-action="pause"
          aria-pressed={paused.value}
          onClick={() => setPaused(!paused.value)}
        >
          {paused.value ? 'Resume' : 'Pause'}
        </button>
        <label>
          <input
            type="checkbox"
            checked={onlySelected.value}
            onChange={(event) => {
              onlySelected.value = (event.target as HTMLInputElement).checked;
              refreshTimeline();
            }}
          />{' '}
          Only this actor
        </label>
      </div>
      <ol class="machines-timeline__list" data-timeline reversed>
        {entries
          .slice(-150)
          .reverse()
          .map((entry) => (
            <Entry key={entry.seq} entry={entry} />
          ))}
      </ol>
    </section>
  );
}

export function MachinesView() {
  useEffect(() => {
    void loadActors();
    select(selected.value);
    // Open only while the view is on screen: the server inspects nothing while no page watches.
    return openStream();
  }, []);
  return (
    <div class="machines" data-machines-link={link.value}>
      <div class="machines-head">
        <ActorList />
        <span class="machines-link" data-status="machines-link">
          {link.value === 'live'
            ? 'Live'
            : link.value === 'signed-out'
              ? 'Signed out: sign in to the operator app'
              : link.value === 'closed'
                ? 'Stream closed'
                : 'Connecting…'}
        </span>
        <a class="btn btn--small btn--plain" href="/machines" target="_blank" rel="noopener">
          Open on a second screen
        </a>
      </div>
      <div class="machines-body">
        <ChartPanel />
        <Timeline />
      </div>
    </div>
  );
}
