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

/** The routes the floor serves too (bench/floor-server.mjs): each is reported as a ratio to it. */
interface FloorRoute {
  figure: string;
  name: string;
  requests: () => Request[];
  /** The share of the floor's rate to reach at 10 clients and more (issue 18). */
  target: number;
}

const FLOOR_ROUTES: FloorRoute[] = [
  {
    figure: 'POST toggle_scoreboard',
    name: 'toggle_scoreboard',
    requests: () => [TOGGLE_SCOREBOARD],
    target: 0.9,
  },
  { figure: 'POST set_map_result', name: 'set_map_result', requests: () => [setMapResult()], target: 0.9 },
  {
    figure: 'GET /api/state (read)',
    name: 'GET /api/state',
    requests: () => [{ method: 'GET', path: '/api/state' }],
    target: 0.9,
  },
];
/** Below this many clients the floor ratio is shown without a target (one client measures latency). */
const FLOOR_TARGET_FROM_CLIENTS = 10;

/**
 * Commands and a read over HTTP against two references, each at 1, 10 and 100 concurrent clients
 * (connections with one request in flight each), for a fixed time after an unmeasured warm-up:
 * the bare Fastify route (the ceiling: Fastify and nothing else) and the floor (issue 18: the same
 * routes doing the least the design allows, bench/floor-server.mjs), each in its own process. At
 * each count the bare route runs first and last (the ratio uses the mean of both, and both are
 * printed, so drift on a shared machine shows), and each route runs on the floor and on the service
 * in turn (floor, service, service, floor, half the time each), so that drift falls on both alike.
 * The server's CPU time per request (user and system apart) hardly moves with the noise; the state
 * stores' counters give the journal writes and fsyncs.
 */
export async function httpThroughput(context: PartContext): Promise<Row[]> {
  const { http } = context.config;
  const bare = await startServerProcess({ runtime: context.runtime, kind: 'bare' });
  const floor = await startServerProcess({
    runtime: context.runtime,
    kind: 'floor',
    nodeOptions: context.nodeOptions('http-floor'),
  });
  const hud = await startServerProcess({
    runtime: context.runtime,
    kind: 'hud',
    nodeOptions: context.nodeOptions('http'),
  });
  const client = new HttpClient(hud.port);
  const floorClient = new HttpClient(floor.port);
  const counters = async (server: ServerProcess): Promise<StoreCounters> => {
    if (server.kind === 'bare') return NONE;
    const answer = await (server.kind === 'hud' ? client : floorClient).get('/internal/storage');
    return (answer.body as { storage: StoreCounters }).storage;
  };
  try {
    await client.action('veto_set', BO3_VETO);

    /** One load on one server: its figures, the server's CPU and its store's counters over it. */
    const slice = async (server: ServerProcess, clients: number, requests: Request[], seconds: number) => {
      const spec = { url: server.httpUrl, connections: clients, requests };
      const cpuBefore = server.cpuTimes();
      const storeBefore = await counters(server);
      const result = await load({ ...spec, seconds });
      const cpuAfter = server.cpuTimes();
      const storeAfter = await counters(server);
      return {
        result,
        userMs: cpuAfter.userMs - cpuBefore.userMs,
        systemMs: cpuAfter.systemMs - cpuBefore.systemMs,
        appends: storeAfter.appends - storeBefore.appends,
        syncs: storeAfter.syncs - storeBefore.syncs,
      };
    };
    type Slice = Awaited<ReturnType<typeof slice>>;

    /** Slices of one server and route as one figure: rate over the whole time, the worst p99 and max. */
    const combine = (name: string, clients: number, slices: Slice[]): Measured => {
      const sum = (of: (piece: Slice) => number) => slices.reduce((total, piece) => total + of(piece), 0);
      const total = sum((piece) => piece.result.total);
      const seconds = sum((piece) => piece.result.seconds);
      const failures = sum((piece) => piece.result.failures);
      const measured: Measured = {
        requestsPerSecond: total / seconds,
        p50Ms: Math.max(...slices.map((piece) => piece.result.p50Ms)),
        p99Ms: Math.max(...slices.map((piece) => piece.result.p99Ms)),
        maxMs: Math.max(...slices.map((piece) => piece.result.maxMs)),
        total,
        seconds,
        failures,
        non2xx: sum((piece) => piece.result.non2xx),
        capped: false,
        failureText: slices.map((piece) => piece.result.failureText).join(' + '),
        userUs: (sum((piece) => piece.userMs) * 1000) / total,
        systemUs: (sum((piece) => piece.systemMs) * 1000) / total,
        appendsPerSecond: sum((piece) => piece.appends) / seconds,
        syncsPerSecond: sum((piece) => piece.syncs) / seconds,
      };
      context.log(
        `  ${name}, ${plural(clients)}: ${perSecond(measured.requestsPerSecond)}, p50 ${measured.p50Ms} ms, p99 ${measured.p99Ms} ms, max ${measured.maxMs} ms, CPU ${us(measured.userUs)} user + ${us(measured.systemUs)} system/req, ${measured.appendsPerSecond.toFixed(0)} journal writes/s, ${measured.syncsPerSecond.toFixed(1)} fsyncs/s, ${measured.failureText}`,
      );
      return measured;
    };

    const warm = (server: ServerProcess, clients: number, requests: Request[]) =>
      load({ url: server.httpUrl, connections: clients, requests, seconds: http.warmupSeconds });

    /** One server on one route: an unmeasured warm-up, then the measured run. */
    const measure = async (
      server: ServerProcess,
      name: string,
      clients: number,
      requests: Request[],
    ): Promise<Measured> => {
      await warm(server, clients, requests);
      return combine(name, clients, [await slice(server, clients, requests, http.seconds)]);
    };

    /**
     * A route on the floor and on the service, half the time each in the order floor, service,
     * service, floor: whatever else the shared machine is doing at the time falls on both alike.
     */
    const measurePair = async (route: FloorRoute, clients: number) => {
      const onFloorRequests = route.requests();
      const requests = route.requests();
      await warm(floor, clients, onFloorRequests);
      await warm(hud, clients, requests);
      const half = http.seconds / 2;
      const floorFirst = await slice(floor, clients, onFloorRequests, half);
      const first = await slice(hud, clients, requests, half);
      const second = await slice(hud, clients, requests, half);
      const floorSecond = await slice(floor, clients, onFloorRequests, half);
      return {
        route,
        onFloor: combine(`floor ${route.name}`, clients, [floorFirst, floorSecond]),
        result: combine(route.name, clients, [first, second]),
      };
    };

    const rows: Row[] = [];
    const health: Request[] = [{ method: 'GET', path: '/health' }];
    for (const clients of http.clients) {
      const bareBefore = await measure(bare, 'bare GET /health (before)', clients, health);
      const routes: Array<Awaited<ReturnType<typeof measurePair>>> = [];
      for (const route of FLOOR_ROUTES) routes.push(await measurePair(route, clients));
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
      const cpuOf = (result: Measured) => `${result.userUs.toFixed(0)} + ${result.systemUs.toFixed(0)}`;
      const cpuRatio = (result: Measured, user: number, system: number) =>
        ratio((result.userUs + result.systemUs) / (user + system));
      const disk = (result: Measured) =>
        result.appendsPerSecond > 0
          ? `; ${perSecond(result.appendsPerSecond)} journal writes, ${result.syncsPerSecond.toFixed(1)} fsyncs/s`
          : '';
      const failed = (result: Measured, allowed: number) =>
        result.failures - allowed > 0 ? `; FAILED: ${result.failureText}` : '';
      const floorRow = ({ route, onFloor, result }: (typeof routes)[number]): Row => {
        const share = result.requestsPerSecond / onFloor.requestsPerSecond;
        const targeted = clients >= FLOOR_TARGET_FROM_CLIENTS;
        return {
          part: PART,
          figure: `${route.figure}, ${plural(clients)}`,
          value: `${perSecond(result.requestsPerSecond)} = ${ratio(share)} floor (${perSecond(onFloor.requestsPerSecond)}), ${ratio(result.requestsPerSecond / ceiling)} bare, p99 ${ms(result.p99Ms)} (floor ${ms(onFloor.p99Ms)}); CPU ${cpuOf(result)} µs/req = ${cpuRatio(result, onFloor.userUs, onFloor.systemUs)} floor (${cpuOf(onFloor)}), ${cpuRatio(result, bareUser, bareSystem)} bare${disk(result)}${failed(result, 0)}${failed(onFloor, 0).replace('FAILED', 'FLOOR FAILED')}`,
          ...(targeted ? { target: `>= ${route.target}x floor`, met: share >= route.target } : {}),
        };
      };
      // With several clients the veto turns interleave: some selects find the map taken, some undos
      // find nothing to undo. Those are answered (400, 409) through the whole command path.
      const vetoShare = veto.requestsPerSecond / ceiling;
      const refused =
        veto.non2xx > 0 ? `; ${((veto.non2xx / veto.total) * 100).toFixed(0)}% refused by interleaving` : '';
      rows.push(
        {
          part: PART,
          figure: `bare Fastify GET /health, ${plural(clients)} (${http.seconds} s)`,
          value: `${perSecond(ceiling)} (before ${perSecond(bareBefore.requestsPerSecond)}, after ${perSecond(bareAfter.requestsPerSecond)}), p99 ${ms(Math.max(bareBefore.p99Ms, bareAfter.p99Ms))}; CPU ${us(bareUser)} user + ${us(bareSystem)} system/req`,
        },
        ...routes.map(floorRow),
        {
          part: PART,
          figure: `POST veto_select, veto_undo in turn, ${plural(clients)}`,
          value: `${perSecond(veto.requestsPerSecond)} = ${ratio(vetoShare)} bare (no floor), p99 ${ms(veto.p99Ms)}; CPU ${cpuOf(veto)} µs/req = ${cpuRatio(veto, bareUser, bareSystem)} bare${disk(veto)}${refused}${failed(veto, veto.non2xx)}`,
          target: '>= 0.8x bare',
          met: vetoShare >= 0.8,
        },
      );
    }
    return rows;
  } finally {
    client.close();
    floorClient.close();
    await hud.stop();
    await floor.stop();
    await bare.stop();
  }
}
