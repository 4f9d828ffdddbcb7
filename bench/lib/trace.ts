/**
 * Chromium's performance trace (`browser.stopTracing()`), read by thread: the busy time of each
 * thread and the time and count of each event on one thread. Complete events (`ph: 'X'`) only;
 * `tdur` (thread CPU) where the trace has it, else the wall time.
 */

export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

export interface Trace {
  /** The complete events in order of their start. */
  events: TraceEvent[];
  /** "process / thread", e.g. "Renderer / CrRendererMain". */
  threadOf(event: TraceEvent): string;
}

export function readTrace(buffer: Buffer | string): Trace {
  const { traceEvents } = JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] };
  const threads = new Map<string, string>();
  const processes = new Map<number, string>();
  for (const event of traceEvents) {
    const name = event.ph === 'M' ? event.args?.name : undefined;
    if (name === undefined) continue;
    if (event.name === 'thread_name') threads.set(`${event.pid}:${event.tid}`, name);
    if (event.name === 'process_name') processes.set(event.pid, name);
  }
  return {
    events: traceEvents.filter((event) => event.ph === 'X').sort((a, b) => a.ts - b.ts),
    threadOf: (event) =>
      `${processes.get(event.pid) ?? event.pid} / ${threads.get(`${event.pid}:${event.tid}`) ?? event.tid}`,
  };
}

const cpuOf = (event: TraceEvent) => event.tdur ?? event.dur ?? 0;

/** A task's outermost events: a thread's own tasks, and a worker's of the thread pool (raster). */
const TASKS = new Set(['RunTask', 'ThreadControllerImpl::RunTask', 'ThreadPool_RunTask']);

/**
 * Each thread's busy time in µs, by "process / thread" (threads of the same name added): its tasks'
 * CPU. A task's `RunTask` holds its `ThreadControllerImpl::RunTask` (a thread may log only one of the
 * two), so a task counts once, by its outermost event.
 */
export function busyByThread(trace: Trace): Map<string, number> {
  const busy = new Map<string, number>();
  const lastTaskEnd = new Map<string, number>();
  for (const event of trace.events) {
    if (!TASKS.has(event.name)) continue;
    // Two renderers both have a CrRendererMain: a task nests only in a task of its own thread.
    const at = `${event.pid}:${event.tid}`;
    if (event.ts < (lastTaskEnd.get(at) ?? 0)) continue;
    lastTaskEnd.set(at, event.ts + (event.dur ?? 0));
    const thread = trace.threadOf(event);
    busy.set(thread, (busy.get(thread) ?? 0) + cpuOf(event));
  }
  return busy;
}

/** The CPU (µs) and the count of each event on the threads named `thread` (nested events overlap). */
export function eventsOn(trace: Trace, thread: string): Map<string, { us: number; count: number }> {
  const byName = new Map<string, { us: number; count: number }>();
  for (const event of trace.events) {
    if (!trace.threadOf(event).endsWith(`/ ${thread}`)) continue;
    const entry = byName.get(event.name) ?? { us: 0, count: 0 };
    entry.us += cpuOf(event);
    entry.count++;
    byName.set(event.name, entry);
  }
  return byName;
}
