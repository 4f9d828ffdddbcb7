/**
 * The bench's reading of Chromium's trace (bench/lib/trace.ts): a thread's busy time counts each
 * task once, though the trace logs a task as `RunTask` with `ThreadControllerImpl::RunTask` inside.
 */
import { describe, expect, it } from 'vitest';
import { busyByThread, eventsOn, readTrace } from '../../bench/lib/trace.ts';

const meta = [
  { name: 'process_name', ph: 'M', pid: 1, tid: 0, ts: 0, args: { name: 'Renderer' } },
  { name: 'thread_name', ph: 'M', pid: 1, tid: 7, ts: 0, args: { name: 'CrRendererMain' } },
  { name: 'thread_name', ph: 'M', pid: 1, tid: 8, ts: 0, args: { name: 'Compositor' } },
  { name: 'process_name', ph: 'M', pid: 2, tid: 0, ts: 0, args: { name: 'Renderer' } },
  { name: 'thread_name', ph: 'M', pid: 2, tid: 7, ts: 0, args: { name: 'CrRendererMain' } },
  { name: 'thread_name', ph: 'M', pid: 1, tid: 9, ts: 0, args: { name: 'ThreadPoolForegroundWorker' } },
];
const task = (tid: number, ts: number, dur: number, name = 'RunTask') => ({
  name,
  ph: 'X',
  pid: 1,
  tid,
  ts,
  dur,
  tdur: dur,
});

describe('the trace of a page', () => {
  it("counts a task once: RunTask and the ThreadControllerImpl::RunTask inside it, a thread's lone inner task, a raster worker's task, two renderers' tasks at once", () => {
    const trace = readTrace(
      JSON.stringify({
        traceEvents: [
          ...meta,
          task(7, 100, 50),
          task(7, 101, 48, 'ThreadControllerImpl::RunTask'),
          task(7, 110, 20, 'Layerize'),
          task(7, 200, 30),
          task(7, 201, 28, 'ThreadControllerImpl::RunTask'),
          task(8, 120, 10, 'ThreadControllerImpl::RunTask'),
          // A raster worker's task, with the raster inside it.
          task(9, 100, 40, 'ThreadPool_RunTask'),
          task(9, 101, 38, 'RasterTask'),
          // Another renderer's main thread, its task inside the first one's in time.
          { ...task(7, 105, 5), pid: 2 },
        ],
      }),
    );
    expect(Object.fromEntries(busyByThread(trace))).toEqual({
      'Renderer / CrRendererMain': 85,
      'Renderer / Compositor': 10,
      'Renderer / ThreadPoolForegroundWorker': 40,
    });
    expect(eventsOn(trace, 'CrRendererMain').get('Layerize')).toEqual({ us: 20, count: 1 });
    expect(eventsOn(trace, 'Compositor').get('Layerize')).toBeUndefined();
  });
});
