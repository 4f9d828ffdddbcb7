/**
 * Run by test/core/roster.test.ts inside a copy of the project whose machines/panels.ts has one
 * more panel (probe): prints what every part derived from the panel list makes of it, as JSON.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { SYSTEM_ID } from '../../machines/system-ids.ts';
import { startServer } from '../../src/server.ts';

const dataDir = await mkdtemp(join(tmpdir(), 'hud-roster-'));
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
const post = async (url: string, body?: unknown) =>
  (await fetch(url, {
    method: 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then((response) => response.json())) as Record<string, any>;
const get = async (url: string) =>
  (await fetch(url).then((response) => response.json())) as Record<string, any>;

const first = await start();
const actions = (await get(`${first.httpUrl}/api/actions`)).actions.map(
  (action: { id: string }) => action.id,
);
const shown = await post(`${first.httpUrl}/api/actions/show_probe`);
const reported = await post(`${first.httpUrl}/internal/overlay_report`, { probeVisible: true });
const actor = first.service.hud.actor('probe' as never) !== undefined;
await first.close();
const second = await start();
const afterRestart = (await get(`${second.httpUrl}/api/state`)).state;
await second.close();
await rm(dataDir, { recursive: true, force: true });

process.stdout.write(
  JSON.stringify({
    systemId: (SYSTEM_ID as Record<string, string>).probe ?? null,
    actor,
    actions: actions.filter((id: string) => id.endsWith('_probe')),
    shown: shown.state,
    reported: reported.ok,
    afterRestart: afterRestart.probeVisible ?? null,
  }),
);
