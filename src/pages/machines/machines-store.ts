/**
 * The Machines view's state: the actors, their charts (laid out by the server), their states now,
 * the timeline, pause and replay. The stream is open only while a view is on screen (`openStream`
 * returns its close), so the server inspects nothing while no one looks.
 */
import { batch, computed, effect, signal, untracked } from '@preact/signals';
import type { ChartLayout } from '../../protocol/machines-view.ts';
import { MACHINES_API } from '../../protocol/machines-view.ts';
import type { StreamedEntry, StreamedMessage } from '../../protocol/machines-view-stream.ts';
import { request } from '../operator/api.ts';

export interface ActorInfo {
  actor: string;
  systemId: string;
  machineId: string;
}

/** Entries the page keeps per actor (the server keeps 200 each); the timeline shows the last of all. */
const KEPT_PER_ACTOR = 400;
export const SHOWN_ENTRIES = 150;

export const actors = signal<ActorInfo[]>([]);
export const selected = signal('vetoSession');
export const charts = signal<Record<string, ChartLayout>>({});
export const chartError = signal<string | null>(null);
/** Each actor's active state paths now. */
export const activeNow = signal<Record<string, string[]>>({});
/** Each actor's entries, oldest first. */
export const entriesOf = signal<Record<string, StreamedEntry[]>>({});
/** What the timeline lists: frozen while paused. */
export const timeline = signal<StreamedEntry[]>([]);
export const paused = signal(false);
export const onlySelected = signal(false);
export const link = signal<'connecting' | 'live' | 'closed' | 'signed-out'>('connecting');
/** Replay: the index in the selected actor's entries being shown, or null when live. */
export const replayAt = signal<number | null>(null);
export const context = signal<{ actor: string; text: string } | null>(null);

let all: StreamedEntry[] = [];

export const selectedEntries = computed(() => entriesOf.value[selected.value] ?? []);

/** What the chart shows: the replayed step's states and transitions, or the live ones. */
export const shown = computed(() => {
  const entries = selectedEntries.value;
  const at = replayAt.value;
  if (at !== null && entries[at]) {
    const entry = entries[at];
    return { active: entry.active, taken: entry.transitions, entry };
  }
  const last = entries.at(-1);
  return {
    active: activeNow.value[selected.value] ?? [],
    // The transition just taken: the last entry's, while it is the latest thing that happened.
    taken: last?.transitions ?? [],
    entry: null,
  };
});

/**
 * Applies what arrived since the last animation frame in one go: one copy of the maps, one render.
 * An entry the server held back (thinned) arrives after later ones of other actors: placed by `seq`.
 */
function apply(messages: StreamedMessage[]): void {
  let entries = { ...entriesOf.value };
  let active = { ...activeNow.value };
  const copied = new Set<string>();
  for (const message of messages) {
    if (message.type === 'hello') {
      all = [];
      entries = {};
      copied.clear();
      active = Object.fromEntries(message.actors.map((actor) => [actor.actor, actor.active]));
    }
    for (const entry of message.type === 'hello' ? message.timeline : [message.entry]) {
      if (!copied.has(entry.actor)) {
        entries[entry.actor] = [...(entries[entry.actor] ?? [])];
        copied.add(entry.actor);
      }
      const kept = entries[entry.actor] as StreamedEntry[];
      kept.push(entry);
      if (kept.length > KEPT_PER_ACTOR * 1.25) kept.splice(0, kept.length - KEPT_PER_ACTOR);
      active[entry.actor] = entry.active;
      let at = all.length;
      while (at > 0 && (all[at - 1] as StreamedEntry).seq > entry.seq) at--;
      all.splice(at, 0, entry);
    }
  }
  if (all.length > SHOWN_ENTRIES * 4) all = all.slice(-SHOWN_ENTRIES);
  batch(() => {
    entriesOf.value = entries;
    activeNow.value = active;
    refreshTimeline();
  });
}

export function refreshTimeline(): void {
  if (!paused.value) timeline.value = all.slice(-SHOWN_ENTRIES * 2);
}

export function setPaused(value: boolean): void {
  paused.value = value;
  refreshTimeline();
}

let queued: StreamedMessage[] = [];
const drain = () => {
  const messages = queued;
  queued = [];
  if (messages.length > 0) apply(messages);
};

/** Coalesced per animation frame; a hidden page (no frames) applies them in bulk instead. */
function receive(message: StreamedMessage): void {
  if (queued.push(message) === 1) requestAnimationFrame(drain);
  else if (queued.length >= 1000) drain();
}

export async function loadActors(): Promise<void> {
  const answer = await request<{ actors: ActorInfo[] }>('GET', MACHINES_API);
  if (answer.ok) actors.value = answer.actors;
  else if (answer.error === 'unauthorized') link.value = 'signed-out';
}

export async function loadChart(actor: string): Promise<void> {
  if (charts.value[actor]) return;
  const answer = await request<{ chart: ChartLayout }>(
    'GET',
    `${MACHINES_API}/chart/${encodeURIComponent(actor)}`,
  );
  if (answer.ok) {
    charts.value = { ...charts.value, [actor]: answer.chart };
    chartError.value = null;
  } else {
    chartError.value = answer.message;
  }
}

export async function loadContext(actor: string): Promise<void> {
  const answer = await request<{ context: unknown }>(
    'GET',
    `${MACHINES_API}/context/${encodeURIComponent(actor)}`,
  );
  context.value = { actor, text: answer.ok ? JSON.stringify(answer.context, null, 2) : answer.message };
}

export function select(actor: string): void {
  selected.value = actor;
  replayAt.value = null;
  context.value = null;
  void loadChart(actor);
}

/** Steps through the selected actor's entries; read-only: it only changes what the chart shows. */
export function step(by: number): void {
  const count = selectedEntries.value.length;
  if (count === 0) return;
  const from = replayAt.value ?? count - 1;
  replayAt.value = Math.min(count - 1, Math.max(0, from + by));
}

export function replay(index: number | null): void {
  replayAt.value = index;
}

/**
 * Opens the live stream for the selected actor and follows the selection; the returned function
 * closes it (the server stops inspecting with the last one). The server sends every entry of the
 * actor in focus and thins the game-frame entries of the others (`unsent` says how many), so a new
 * selection opens a new stream; the old one closes once the new one's `hello` has arrived, so the
 * server never stops watching in between.
 */
export function openStream(): () => void {
  let source: EventSource | null = null;
  /** Streams of earlier selections, closed once the current one is up (or has failed). */
  let retiring: EventSource[] = [];
  const retire = () => {
    for (const old of retiring) old.close();
    retiring = [];
  };
  const open = (focus: string) => {
    if (source) retiring.push(source);
    const next = new EventSource(`${MACHINES_API}/stream?focus=${encodeURIComponent(focus)}`);
    source = next;
    link.value = 'connecting';
    next.onopen = () => {
      if (source === next) link.value = 'live';
    };
    next.onmessage = (message: MessageEvent<string>) => {
      if (source !== next) return;
      const parsed = JSON.parse(message.data) as StreamedMessage;
      if (parsed.type === 'hello') retire();
      receive(parsed);
    };
    next.onerror = () => {
      if (source !== next) return;
      retire();
      // EventSource reconnects by itself after a drop; it gives up (CLOSED) on a refusal such as 401.
      if (next.readyState === EventSource.CLOSED) {
        link.value = 'closed';
        void loadActors();
      } else link.value = 'connecting';
    };
  };
  const stop = effect(() => {
    const focus = selected.value;
    untracked(() => open(focus));
  });
  return () => {
    stop();
    retire();
    source?.close();
    source = null;
  };
}
