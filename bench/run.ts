/**
 * The performance bench (issue 6): `npm run bench` for the full run, `npm run bench -- --quick`
 * for a few seconds per part (CI runs it so the scripts keep working; it checks the exit code,
 * not the figures). Options: --only startup,http,latency,ws,memory,operator,overlay,radar,game,observer,show,teams  --profile (node --cpu-prof
 * on every server under test; profiles and their summaries go to bench/results/profiles/)  --long-show (the show part
 * also runs a 10-minute show for RSS growth).
 * The method behind each figure: docs/performance.md.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { PartContext } from './lib/config.ts';
import { FULL, QUICK } from './lib/config.ts';
import { chooseRuntime, ROOT } from './lib/server-process.ts';
import type { Row } from './lib/table.ts';
import { renderTable } from './lib/table.ts';
import { eventLatency } from './parts/event-latency.ts';
import { gameData } from './parts/game-data.ts';
import { httpThroughput } from './parts/http-throughput.ts';
import { memory } from './parts/memory.ts';
import { observer } from './parts/observer.ts';
import { operatorClick } from './parts/operator-click.ts';
import { overlayLatency } from './parts/overlay-latency.ts';
import { radarLatency } from './parts/radar-latency.ts';
import { show } from './parts/show.ts';
import { startup } from './parts/startup.ts';
import { teams } from './parts/teams.ts';
import { wsTriggers } from './parts/ws-triggers.ts';
import { summarizeProfile } from './profile-summary.ts';

const PARTS = [
  'startup',
  'http',
  'latency',
  'ws',
  'memory',
  'operator',
  'overlay',
  'radar',
  'game',
  'observer',
  'show',
  'teams',
] as const;
type Part = (typeof PARTS)[number];

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    only: { type: 'string' },
    profile: { type: 'boolean' },
    'long-show': { type: 'boolean' },
  },
});
const LONG_SHOW_MINUTES = 10;
const base = values.quick ? QUICK : FULL;
const config = values['long-show']
  ? { ...base, show: { ...base.show, longMinutes: LONG_SHOW_MINUTES } }
  : base;
const only = new Set((values.only ?? PARTS.join(',')).split(',').map((part) => part.trim()));
for (const part of only)
  if (!PARTS.includes(part as Part)) throw new Error(`--only: no part "${part}" (${PARTS.join(', ')})`);

const RESULTS = join(ROOT, 'bench/results');
const PROFILES = join(RESULTS, 'profiles');
// A bound on the whole run, whatever happens inside it.
const LIMIT_MS = (values.quick ? 6 * 60_000 : 20 * 60_000) + config.show.longMinutes * 60_000;
setTimeout(() => {
  process.stderr.write(`bench: over the ${LIMIT_MS / 60_000} min limit, stopping\n`);
  process.exit(1);
}, LIMIT_MS).unref();

const log = (line: string) => process.stderr.write(`${line}\n`);
const runtime = chooseRuntime();
const context: PartContext = {
  config,
  runtime,
  log,
  nodeOptions: (part) => (values.profile ? ['--cpu-prof', '--cpu-prof-dir', join(PROFILES, part)] : []),
};

const started = Date.now();
const rows: Row[] = [];
let lost = 0;
const parts: Record<Part, () => Promise<void>> = {
  startup: async () => void rows.push(...(await startup(context))),
  http: async () => void rows.push(...(await httpThroughput(context))),
  latency: async () => {
    const outcome = await eventLatency(context);
    rows.push(...outcome.rows);
    lost += outcome.lost;
  },
  ws: async () => {
    const outcome = await wsTriggers(context);
    rows.push(...outcome.rows);
    lost += outcome.lost;
  },
  memory: async () => void rows.push(...(await memory(context))),
  operator: async () => void rows.push(...(await operatorClick(context))),
  overlay: async () => void rows.push(...(await overlayLatency(context))),
  radar: async () => void rows.push(...(await radarLatency(context))),
  game: async () => void rows.push(...(await gameData(context))),
  teams: async () => void rows.push(...(await teams(context))),
  observer: async () => void rows.push(...(await observer(context))),
  show: async () => {
    const outcome = await show(context);
    rows.push(...outcome.rows);
    // A frame refused, a command unanswered or an event lost is a broken stream, not a slow figure.
    lost += outcome.broken;
  },
};
let broken = 0;
for (const part of PARTS) {
  if (!only.has(part)) continue;
  log(`== ${part}`);
  try {
    await parts[part]();
  } catch (error) {
    // The other parts still run and the table still prints; the exit code says the bench is broken.
    broken++;
    log(
      `bench: part ${part} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    rows.push({
      part,
      figure: 'the part did not complete',
      value: error instanceof Error ? error.message : String(error),
    });
  }
}

const header = `hud-automation bench${values.quick ? ' --quick' : ''}: node ${process.version}, ${cpus().length} CPUs, server from ${runtime.kind === 'dist' ? 'dist/ (npm run build)' : 'src/ through tsx'}, ${new Date().toISOString()}, ${((Date.now() - started) / 1000).toFixed(0)} s`;
const table = renderTable(rows);
process.stdout.write(`\n${header}\n\n${table}\n`);
mkdirSync(RESULTS, { recursive: true });
writeFileSync(join(RESULTS, `bench${values.quick ? '-quick' : ''}.md`), `${header}\n\n${table}\n`);

if (values.profile) {
  for (const part of readdirSync(PROFILES)) {
    for (const file of readdirSync(join(PROFILES, part)).filter((name) => name.endsWith('.cpuprofile'))) {
      const summary = summarizeProfile(join(PROFILES, part, file));
      writeFileSync(join(PROFILES, part, `${file}.txt`), `${summary}\n`);
      log(`\n${summary}`);
    }
  }
}
if (broken > 0) process.exitCode = 1;
if (lost > 0) {
  process.stderr.write(`bench: ${lost} events lost or out of order: the event stream is broken\n`);
  process.exitCode = 1;
}
