import type { Request } from 'autocannon';
import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  connections: number;
  /** Sequence each connection loops over. */
  requests: Request[];
  /** Fixed duration, seconds … */
  seconds?: number;
  /** … or a fixed number of requests, stopped after maxSeconds if it has not finished by then. */
  amount?: number;
  maxSeconds?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  total: number;
  /** Non-2xx answers, connection errors and timeouts (no answer within 10 s): a correct run has none. */
  failures: number;
  non2xx: number;
  /** How long the run took, as autocannon measured it (it may run past a fractional duration). */
  seconds: number;
  /** The same, spelt out. */
  failureText: string;
  /** An amount run that maxSeconds stopped before it was done. */
  capped: boolean;
}

/** One autocannon run from this process (pipelining 1): the server under test is another process. */
export async function load(spec: LoadSpec): Promise<LoadResult> {
  const instance = autocannon({
    url: spec.url,
    connections: spec.connections,
    pipelining: 1,
    timeout: 10,
    requests: spec.requests,
    ...(spec.amount !== undefined ? { amount: spec.amount } : { duration: spec.seconds ?? 1 }),
  });
  let capped = false;
  const cap =
    spec.maxSeconds === undefined
      ? undefined
      : setTimeout(() => {
          capped = true;
          instance.stop();
        }, spec.maxSeconds * 1000);
  const result = await instance;
  clearTimeout(cap);
  const total = result['2xx'] + result.non2xx;
  return {
    // Completed requests over the measured time: with an amount, the per-second samples would miss the last partial second.
    requestsPerSecond: total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    total,
    failures: result.non2xx + result.errors,
    non2xx: result.non2xx,
    seconds: result.duration,
    capped,
    failureText: `${result.non2xx} non-2xx, ${result.timeouts} timeouts, ${result.errors - result.timeouts} other errors`,
  };
}

const JSON_HEADERS = { 'content-type': 'application/json' };

export const TOGGLE_SCOREBOARD: Request = { method: 'POST', path: '/api/actions/toggle_scoreboard' };

/**
 * set_map_result on series map 1 with a score that differs from the one before, so that every
 * command is a real change (a new revision, an event, a save) even with 50 connections interleaved.
 */
export function setMapResult(): Request {
  let n = 0;
  return {
    method: 'POST',
    path: '/api/actions/set_map_result',
    headers: JSON_HEADERS,
    setupRequest: (request) => {
      n++;
      return {
        ...request,
        body: JSON.stringify({ map: 1, scoreA: n % 97, scoreB: Math.floor(n / 97) % 89 }),
      };
    },
  };
}

/**
 * A turn of the manual veto (a ban of Nuke) and its undo, in turn on each connection: a session
 * must be running. With one client every request is a real change; with more, their turns interleave.
 */
export function vetoSelectAndUndo(): Request[] {
  return [
    {
      method: 'POST',
      path: '/api/actions/veto_select',
      headers: JSON_HEADERS,
      body: JSON.stringify({ map: 'nuke' }),
    },
    { method: 'POST', path: '/api/actions/veto_undo' },
  ];
}
