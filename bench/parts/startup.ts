import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PartContext } from '../lib/config.ts';
import { startServerProcess } from '../lib/server-process.ts';
import { median, ms, ratio } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';

const PART = 'Start-up';
/** Issue 22: the service answers /health in under 250 ms (on a quiet machine), and at most twice bare Fastify. */
const TARGET_MS = 250;
const TARGET_RATIO = 2;

/**
 * From spawn() until GET /health first answers 200 (polled every 2 ms), for the CLI and for the
 * bare Fastify server, started alternately, after one unmeasured start of each (disk cache). The
 * CLI keeps one data dir, so every measured start loads an existing state like a real restart.
 */
export async function startup(context: PartContext): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hud-bench-start-'));
  const times = { hud: [] as number[], bare: [] as number[] };
  try {
    for (let i = 0; i <= context.config.startup.starts; i++) {
      for (const kind of ['bare', 'hud'] as const) {
        const server = await startServerProcess({ runtime: context.runtime, kind, dataDir });
        await server.stop();
        if (i > 0) times[kind].push(server.startMs);
      }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const hud = median(times.hud);
  const bare = median(times.bare);
  context.log(
    `  hud ${times.hud.map((t) => t.toFixed(0)).join(' ')} ms; bare ${times.bare.map((t) => t.toFixed(0)).join(' ')} ms`,
  );
  const starts = context.config.startup.starts;
  return [
    { part: PART, figure: `bare Fastify, median of ${starts}`, value: ms(bare) },
    {
      part: PART,
      figure: `hud-automation serve (${context.runtime.kind}), median of ${starts}`,
      value: `${ms(hud)}, ${ratio(hud / bare)} bare`,
      target: `< ${TARGET_MS} ms, <= ${TARGET_RATIO}x bare`,
      met: hud < TARGET_MS && hud / bare <= TARGET_RATIO,
    },
  ];
}
