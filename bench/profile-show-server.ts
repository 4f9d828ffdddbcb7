/**
 * The show (bench/parts/show.ts) with both servers under `node --cpu-prof`: the service and the
 * show's floor, each profile summarised over the measured stretch in µs per game frame
 * (bench/results/profiles/show*\/*.cpuprofile.show.txt), and the idle stretch after the show apart
 * (*.cpuprofile.idle.txt, µs per second).
 * Usage: npx tsx bench/profile-show-server.ts [--seconds 30] [--idle 20]
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FULL } from './lib/config.ts';
import { chooseRuntime, ROOT } from './lib/server-process.ts';
import { renderTable } from './lib/table.ts';
import { show } from './parts/show.ts';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '30' }, idle: { type: 'string', default: '20' } },
});
const PROFILES = join(ROOT, 'bench/results/profiles');
const outcome = await show({
  config: {
    ...FULL,
    show: {
      idleSeconds: Number(values.idle),
      idleAfter: true,
      warmupSeconds: 5,
      seconds: Number(values.seconds),
      longMinutes: 0,
    },
  },
  runtime: chooseRuntime(),
  log: (line) => process.stderr.write(`${line}\n`),
  nodeOptions: (part) => ['--cpu-prof', '--cpu-prof-dir', join(PROFILES, part)],
});
process.stdout.write(`${renderTable(outcome.rows)}\n`);
