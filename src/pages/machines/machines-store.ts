/**
 * The Machines view's state: the actors, their charts (laid out by the server), their states now,
 * the timeline, pause and replay. The stream is open only while a view is on screen (`openStream`
 * returns its close), so the server inspects nothing while no one looks.
 */
import { computed, signal } from '@preact/signals';
import type { ChartLayout, MachinesStreamMessage, TimelineEntry } from '../../protocol/machines-view.ts';
import { MACHINES_API } from '../../protocol/machines-view.ts';
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
export const entriesOf = signal<Record<string, TimelineEntry[]>>({});
/** What the timeline lists: frozen while paused. */
export const timeline = signal<TimelineEntry[]>([]);
export const paused = signal(false);
export const onlySelected = signal(false);
export const link = signal<'connecting' | 'live' | 'closed' | 'signed-out'>('connecting');
/** Replay: the index in the selected actor's entries being shown, or null when live. */
export const replayAt = signal<number | null>(null);
export const context = signal<{ actor: string; text: string } | null>(null);

let all: TimelineEntry[] = [];

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

function add(entry: TimelineEntry): void {
  const kept = entriesOf.value[entry.actor] ?? [];
  const next = [...kept, entry];
  entriesOf.value = {
    ...entriesOf.value,
    [entry.actor]: next.length > KEPT_PER_ACTOR ? next.slice(-KEPT_PER_ACTOR) : next,
  };
  activeNow.value = { ...activeNow.value, [entry.actor]: entry.active };
  all.push(entry);
  if (all.length > SHOWN_ENTRIES * 4) all = all.slice(-SHOWN_ENTRIES);
}

export function refreshTimeline(): void {
  if (!paused.value) timeline.value = all.slice(-SHOWN_ENTRIES * 2);
}

export function setPaused(value: boolean): void {
  paused.value = value;
  refreshTimeline();
}

function receive(message: MachinesStreamMessage): void {
  if (message.type === 'hello') {
    all = [];
    entriesOf.value = {};
    activeNow.value = Object.fromEntries(message.actors.map((actor) => [actor.actor, actor.active]));
    for (const entry of message.timeline) add(entry);
  } else {
    add(message.entry);
  }
  refreshTimeline();
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

/** Opens the live stream; the returned function closes it (the server stops inspecting with the last one). */
export function openStream(): () => void {
  link.value = 'connecting';
  const source = new EventSource(`${MACHINES_API}/stream`);
  source.onopen = () => {
    link.value = 'live';
  };
  source.onmessage = (message: MessageEvent<string>) => {
    receive(JSON.parse(message.data) as MachinesStreamMessage);
  };
  source.onerror = () => {
    // EventSource reconnects by itself after a drop; it gives up (CLOSED) on a refusal such as 401.
    if (source.readyState === EventSource.CLOSED) {
      link.value = 'closed';
      void loadActors();
    } else link.value = 'connecting';
  };
  return () => source.close();
}
