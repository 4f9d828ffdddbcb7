/**
 * Run by test/core/roster.test.ts inside a copy of the project with one more saved actor (clock: its
 * machine, its systemId, its roster entry, its saved part): prints what the service makes of it, as
 * JSON: the actor runs, its change is written, and a restart starts it from what was written.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startServer } from '../../src/server.ts';

const dataDir = await mkdtemp(join(tmpdir(), 'hud-roster-saved-'));
const start = () =>
  startServer({
    port: 0,
    appPort: 0,
    dataDir,
    headless: true,
    subscriptionActive: false,
    overrides: { obs: { enabled: false } },
    logger: pino({ level: 'silent' }),
  });
// The copy's own types are checked by tsc on the copy; here the new key is not in this file's types.
type Clock = { send(event: { type: string }): void; getSnapshot(): { context: { ticks: number } } };
const clockOf = (server: Awaited<ReturnType<typeof start>>) =>
  server.service.hud.actor('clock' as never) as Clock;

const first = await start();
const started = clockOf(first).getSnapshot().context.ticks;
for (let i = 0; i < 3; i++) first.service.hub.batch(() => clockOf(first).send({ type: 'clock.tick' }));
await first.service.store.requestSave();
await first.close();
const written = JSON.parse(await readFile(join(dataDir, 'state.json'), 'utf8')).clock ?? null;
const second = await start();
const restored = clockOf(second).getSnapshot().context.ticks;
await second.close();
await rm(dataDir, { recursive: true, force: true });

process.stdout.write(JSON.stringify({ started, written, restored }));
