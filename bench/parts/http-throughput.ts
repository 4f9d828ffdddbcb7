import type { Request } from 'autocannon';
import type { PartContext } from '../lib/config.ts';
import { BO3_VETO, HttpClient } from '../lib/http-client.ts';
import type { LoadResult } from '../lib/http-load.ts';
import { load, setMapResult, TOGGLE_SCOREBOARD, vetoSelectAndUndo } from '../lib/http-load.ts';
import type { ServerProcess } from '../lib/server-process.ts';
import { startServerProcess } from '../lib/server-process.ts';
import { ms, perSecond, ratio } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';

const PART = 'HTTP throughput';

interface Measured extends LoadResult {
  /** Server CPU time per request, user and system (from /proc/<pid>/stat): steadier than req/s. */
  userUs: number;
  systemUs: number;
  /** Journal writes (group commits) and fsync/fdatasync calls of the state store per second. */
  appendsPerSecond: number;
  syncsPerSecond: number;
}

interface StoreCounters {
  appends: number;
  syncs: number;
}

const NONE: StoreCounters = { appends: 0, syncs: 0 };
const us = (value: number) => `${value.toFixed(0)} µs`;
const plural = (clients: number) => `${clients} client${clients === 1 ? '' : 's'}`;

/**
 * Commands and a read over HTTP against the bare Fastify route, each at 1, 10 and 100 concurrent
 * clients (connections with one request in flight each), for a fixed time after an unmeasured
 * warm-up. At each count the bare route runs first and last: the ratio uses the mean of both, and
 * both are printed, so drift on a shared machine shows. The server's CPU time per request (user and
 * system apart) hardly moves with the noise; the state store's own counters give the fsyncs.
 */
export async function httpThroughput(context: PartContext): Promise<Row[]> {
  const { http } = context.config;
  const bare = await startServerProcess({ runtime: context.runtime, kind: 'bare' });
  const hud = await startServerProcess({
    runtime: context.runtime,
    kind: 'hud',
    nodeOptions: context.nodeOptions('http'),
  });
  const client = new HttpClient(hud.port);
  const counters = async (server: ServerProcess): Promise<StoreCounters> =>
    server.kind === 'hud'
      ? ((await client.get('/internal/storage')).body as { storage: StoreCounters }).storage
      : NONE;
  try {
    await client.action('veto_set', BO3_VETO);

    const measure = async (
      server: ServerProcess,
      name: string,
      clients: number,
      requests: Request[],
    ): Promise<Measured> => {
      const spec = { url: server.httpUrl, connections: clients, requests };
      await load({ ...spec, seconds: http.warmupSeconds });
      const cpuBefore = server.cpuTimes();
      const storeBefore = await counters(server);
      const result = await load({ ...spec, seconds: http.seconds });
      const cpuAfter = server.cpuTimes();
      const storeAfter = await counters(server);
      const measured: Measured = {
        ...result,
        userUs: ((cpuAfter.userMs - cpuBefore.userMs) * 1000) / result.total,
        systemUs: ((cpuAfter.systemMs - cpuBefore.systemMs) * 1000) / result.total,
        appendsPerSecond: (storeAfter.appends - storeBefore.appends) / result.seconds,
        syncsPerSecond: (storeAfter.syncs - storeBefore.syncs) / result.seconds,
      };
      context.log(
        `  ${name}, ${plural(clients)}: ${perSecond(result.requestsPerSecond)}, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, max ${result.maxMs} ms, CPU ${us(measured.userUs)} user + ${us(measured.systemUs)} system/req, ${measured.appendsPerSecond.toFixed(0)} journal writes/s, ${measured.syncsPerSecond.toFixed(1)} fsyncs/s, ${result.failureText}`,
      );
      return measured;
    };

    const rows: Row[] = [];
    const health: Request[] = [{ method: 'GET', path: '/health' }];
    for (const clients of http.clients) {
      const bareBefore = await measure(bare, 'bare GET /health (before)', clients, health);
      const toggle = await measure(hud, 'toggle_scoreboard', clients, [TOGGLE_SCOREBOARD]);
      const mapResult = await measure(hud, 'set_map_result', clients, [setMapResult()]);
      const state = await measure(hud, 'GET /api/state', clients, [{ method: 'GET', path: '/api/state' }]);
      await client.action('veto_start', {
        boFormat: 'bo1',
        teamA: { name: 'Alpha' },
        teamB: { name: 'Bravo' },
      });
      const veto = await measure(hud, 'veto_select / veto_undo', clients, vetoSelectAndUndo());
      await client.action('veto_cancel');
      const bareAfter = await measure(bare, 'bare GET /health (after)', clients, health);

      const ceiling = (bareBefore.requestsPerSecond + bareAfter.requestsPerSecond) / 2;
      const bareUser = (bareBefore.userUs + bareAfter.userUs) / 2;
      const bareSystem = (bareBefore.systemUs + bareAfter.systemUs) / 2;
      const row = (figure: string, result: Measured, target: number, refusedByDesign = false): Row => {
        const share = result.requestsPerSecond / ceiling;
        const cpu = `CPU ${us(result.userUs)} user + ${us(result.systemUs)} system/req = ${ratio((result.userUs + result.systemUs) / (bareUser + bareSystem))} bare`;
        const disk =
          result.appendsPerSecond > 0
            ? `; ${perSecond(result.appendsPerSecond)} journal writes, ${result.syncsPerSecond.toFixed(1)} fsyncs/s`
            : '';
        // With several clients the veto turns interleave: some selects find the map taken, some undos
        // find nothing to undo. Those are answered (400, 409) through the whole command path.
        const refused =
          refusedByDesign && result.non2xx > 0
            ? `; ${((result.non2xx / result.total) * 100).toFixed(0)}% refused by interleaving`
            : '';
        const failed = result.failures - (refusedByDesign ? result.non2xx : 0);
        return {
          part: PART,
          figure: `${figure}, ${plural(clients)}`,
          value: `${perSecond(result.requestsPerSecond)} = ${ratio(share)} bare, p99 ${ms(result.p99Ms)}; ${cpu}${disk}${refused}${failed > 0 ? `; FAILED: ${result.failureText}` : ''}`,
          target: `>= ${target}x bare`,
          met: share >= target,
        };
      };
      rows.push(
        {
          part: PART,
          figure: `bare Fastify GET /health, ${plural(clients)} (${http.seconds} s)`,
          value: `${perSecond(ceiling)} (before ${perSecond(bareBefore.requestsPerSecond)}, after ${perSecond(bareAfter.requestsPerSecond)}), p99 ${ms(Math.max(bareBefore.p99Ms, bareAfter.p99Ms))}; CPU ${us(bareUser)} user + ${us(bareSystem)} system/req`,
        },
        row('POST toggle_scoreboard', toggle, 0.8),
        row('POST set_map_result', mapResult, 0.8),
        row('POST veto_select, veto_undo in turn', veto, 0.8, true),
        row('GET /api/state (read)', state, 0.9),
      );
    }
    return rows;
  } finally {
    client.close();
    await hud.stop();
    await bare.stop();
  }
}
