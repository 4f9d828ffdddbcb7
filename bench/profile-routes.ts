/**
 * Where the service spends a request that the floor does not (issue 18): runs one route at a time
 * under autocannon against the service and against the floor (bench/floor-server.mjs), each in its
 * own process under `node --cpu-prof`, and summarises only the measured load of each profile (not
 * start-up, not the warm-up) with microseconds per request.
 *
 * Usage: tsx bench/profile-routes.ts [--routes toggle,map,state] [--clients 10] [--seconds 5] [--servers hud,floor] [--tsx]
 * The service runs as `npm start` runs it, the bundle in dist/ (built first); the summary names the
 * source files through the bundle's source map. --tsx runs src/ through tsx instead (its helpers,
 * such as esbuild's __name, then show in the profile and cost time the bundle does not spend).
 * Profiles and summaries: bench/results/profiles/routes/.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Request } from 'autocannon';
import { BO3_VETO, HttpClient } from './lib/http-client.ts';
import { load, setMapResult, TOGGLE_SCOREBOARD } from './lib/http-load.ts';
import type { Runtime, ServerKind } from './lib/server-process.ts';
import { chooseRuntime, ROOT, startServerProcess } from './lib/server-process.ts';
import { perSecond } from './lib/stats.ts';
import type { Tally } from './profile-summary.ts';
import { diffProfiles, summarizeProfile, tallyProfile } from './profile-summary.ts';

const ROUTES: Record<string, () => Request[]> = {
  toggle: () => [TOGGLE_SCOREBOARD],
  map: () => [setMapResult()],
  state: () => [{ method: 'GET', path: '/api/state' }],
};

const { values } = parseArgs({
  options: {
    routes: { type: 'string', default: 'toggle,map,state' },
    servers: { type: 'string', default: 'hud,floor' },
    clients: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '5' },
    top: { type: 'string', default: '30' },
    tsx: { type: 'boolean' },
  },
});
const clients = Number(values.clients);
const seconds = Number(values.seconds);
const runtime: Runtime = values.tsx
  ? {
      kind: 'tsx',
      cli: ['--import', 'tsx', join(ROOT, 'src/cli.ts')],
      bare: [join(ROOT, 'bench/bare-server.mjs')],
      floor: [join(ROOT, 'bench/floor-server.mjs')],
      showFloor: [join(ROOT, 'bench/show-floor-server.mjs')],
    }
  : chooseRuntime();
const OUT = join(ROOT, 'bench/results/profiles/routes');
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

for (const route of values.routes.split(',')) {
  const tallies = new Map<ServerKind, { tally: Tally; requests: number }>();
  const requests = ROUTES[route];
  if (!requests) throw new Error(`--routes: no route "${route}" (${Object.keys(ROUTES).join(', ')})`);
  for (const kind of values.servers.split(',') as ServerKind[]) {
    const dir = join(OUT, `${kind}-${route}-${clients}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const server = await startServerProcess({
      runtime,
      kind,
      nodeOptions: ['--cpu-prof', '--cpu-prof-dir', dir],
    });
    try {
      if (kind === 'hud') {
        const client = new HttpClient(server.port);
        await client.action('veto_set', BO3_VETO);
        client.close();
      }
      const spec = { url: server.httpUrl, connections: clients, requests: requests() };
      await load({ ...spec, seconds: 2 });
      const cpuBefore = server.cpuTimes();
      const fromUs = nowUs();
      const result = await load({ ...spec, seconds });
      const toUs = nowUs();
      const cpuAfter = server.cpuTimes();
      await server.stop();
      const user = ((cpuAfter.userMs - cpuBefore.userMs) * 1000) / result.total;
      const system = ((cpuAfter.systemMs - cpuBefore.systemMs) * 1000) / result.total;
      const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
      if (!file) throw new Error(`${kind} wrote no profile in ${dir}`);
      const head = `${kind} ${route}, ${clients} clients, ${seconds} s: ${perSecond(result.requestsPerSecond)}, CPU ${user.toFixed(1)} user + ${system.toFixed(1)} system µs/req (profiler on), ${result.failureText}`;
      const window = { fromUs, toUs };
      const summary = summarizeProfile(join(dir, file), Number(values.top), result.total, window);
      tallies.set(kind, { tally: tallyProfile(join(dir, file), window), requests: result.total });
      writeFileSync(join(dir, 'summary.txt'), `${head}\n${summary}\n`);
      process.stdout.write(`\n${head}\n${summary}\n`);
    } finally {
      await server.stop();
    }
  }
  const hud = tallies.get('hud');
  const floor = tallies.get('floor');
  if (hud && floor) {
    const diff = `the service against the floor, ${route}, ${clients} clients (profiler on):\n${diffProfiles(hud, floor, Number(values.top))}`;
    writeFileSync(join(OUT, `diff-${route}-${clients}.txt`), `${diff}\n`);
    process.stdout.write(`\n${diff}\n`);
  }
}
