import type { Request } from 'autocannon';
import type { PartContext } from '../lib/config.ts';
import { BO3_VETO, HttpClient } from '../lib/http-client.ts';
import type { LoadResult } from '../lib/http-load.ts';
import { load, setMapResult, TOGGLE_SCOREBOARD } from '../lib/http-load.ts';
import type { ServerProcess } from '../lib/server-process.ts';
import { startServerProcess } from '../lib/server-process.ts';
import { ms, perSecond, ratio } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';

const PART = 'HTTP throughput';

interface Measured extends LoadResult {
  /** Server CPU time (user + system) per request: steadier than req/s on a shared machine. */
  cpuUsPerRequest: number;
  /** Share of one core the server used during the run. */
  busy: number;
}

const cpu = (us: number) => `${us.toFixed(0)} µs`;

/**
 * Commands and a read over HTTP against the bare Fastify route, 50 connections, pipelining 1,
 * fixed duration, each after an unmeasured warm-up. The bare route runs first and last: the ratio
 * uses the mean of both, and both are printed, so drift on a shared machine shows. The server's
 * CPU time per request (from /proc/<pid>/stat) is printed too: it hardly moves with the noise.
 */
export async function httpThroughput(context: PartContext): Promise<Row[]> {
  const { http } = context.config;
  const bare = await startServerProcess({ runtime: context.runtime, kind: 'bare' });
  const hud = await startServerProcess({
    runtime: context.runtime,
    kind: 'hud',
    nodeOptions: context.nodeOptions('http'),
  });
  try {
    const client = new HttpClient(hud.port);
    await client.action('veto_set', BO3_VETO);
    client.close();

    const measure = async (server: ServerProcess, name: string, requests: Request[]): Promise<Measured> => {
      await load({
        url: server.httpUrl,
        connections: http.connections,
        requests,
        seconds: http.warmupSeconds,
      });
      const cpuBefore = server.cpuMs();
      const result = await load({
        url: server.httpUrl,
        connections: http.connections,
        requests,
        seconds: http.seconds,
      });
      const cpuMs = server.cpuMs() - cpuBefore;
      const measured = {
        ...result,
        cpuUsPerRequest: (cpuMs * 1000) / result.total,
        busy: cpuMs / (http.seconds * 1000),
      };
      context.log(
        `  ${name}: ${perSecond(result.requestsPerSecond)}, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, max ${result.maxMs} ms, server CPU ${measured.cpuUsPerRequest.toFixed(0)} µs/request (busy ${(measured.busy * 100).toFixed(0)}%), ${result.failureText}`,
      );
      // Reported, not thrown: an unanswered command is a finding about the server.
      return measured;
    };

    const health: Request[] = [{ method: 'GET', path: '/health' }];
    const bareBefore = await measure(bare, 'bare GET /health (before)', health);
    const toggle = await measure(hud, 'toggle_scoreboard', [TOGGLE_SCOREBOARD]);
    const mapResult = await measure(hud, 'set_map_result', [setMapResult()]);
    const state = await measure(hud, 'GET /api/state', [{ method: 'GET', path: '/api/state' }]);
    const bareAfter = await measure(bare, 'bare GET /health (after)', health);
    const ceiling = (bareBefore.requestsPerSecond + bareAfter.requestsPerSecond) / 2;
    const bareCpu = (bareBefore.cpuUsPerRequest + bareAfter.cpuUsPerRequest) / 2;

    const row = (figure: string, result: Measured, target: boolean): Row => {
      const share = result.requestsPerSecond / ceiling;
      return {
        part: PART,
        figure,
        value: `${perSecond(result.requestsPerSecond)} = ${ratio(share)} bare, p99 ${ms(result.p99Ms)}, max ${ms(result.maxMs)}; CPU ${cpu(result.cpuUsPerRequest)}/req = ${ratio(result.cpuUsPerRequest / bareCpu)} bare${result.failures > 0 ? `; FAILED: ${result.failureText}` : ''}`,
        ...(target ? { target: '>= 0.8x bare', met: share >= 0.8 } : {}),
      };
    };
    return [
      {
        part: PART,
        figure: `bare Fastify GET /health (${http.connections} conn, ${http.seconds} s)`,
        value: `${perSecond(ceiling)} (before ${perSecond(bareBefore.requestsPerSecond)}, after ${perSecond(bareAfter.requestsPerSecond)}), p99 ${ms(Math.max(bareBefore.p99Ms, bareAfter.p99Ms))}; CPU ${cpu(bareCpu)}/req`,
      },
      row('POST toggle_scoreboard (HUD command)', toggle, true),
      row('POST set_map_result (match command)', mapResult, true),
      row('GET /api/state (read)', state, false),
    ];
  } finally {
    await hud.stop();
    await bare.stop();
  }
}
