/**
 * While storage fails, game frames do not apply what lasts and then roll it back (each failed write
 * used to put the saved roster back: 20 frames, 40 flips on the HUD). The roster holds its last saved
 * value, the HUD state's `storage` says why and the Game status says what is held; once the disk
 * takes writes again, the last frame's roster applies at once and is saved. Real HTTP, a page's
 * WebSocket counting what it is sent, the store's writes failing as a broken disk's do.
 */
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, command, get, tempDir } from '../helpers/build.ts';
import { FaultyFiles } from '../helpers/faulty-files.ts';
import type { Frame } from '../helpers/gsi.ts';
import { FAZE_NAVI, fixture, postFrame, toCs2, withToken } from '../helpers/gsi.ts';
import { connect } from '../helpers/ws-client.ts';

const names = (roster: Array<{ name: string }>) => roster.map((entry) => entry.name);
const rosterEvents = (messages: any[]) =>
  messages.filter((m) => m.type === 'event' && m.event === 'hud.state' && m.data.roster !== undefined);

describe('game frames while storage fails', () => {
  it('20 frames with a new roster: no roster event while failing, the roster applied once storage recovers', async () => {
    const dataDir = await tempDir();
    const faults = new FaultyFiles();
    const server: RunningServer = await build({
      dataDir,
      storeFiles: faults.wrap,
      gameReceivingTimeoutMs: 600_000,
    });
    const post = (frame: Frame) =>
      postFrame(server.applicationPort, withToken(frame, server.service.game.token));
    const capture = toCs2(await fixture(FAZE_NAVI));
    expect((await post(capture)).status).toBe(200);
    await server.service.store.durable();
    const saved = (await get(server, '/api/state')).body.state.roster;
    expect(saved).toHaveLength(10);

    const page = await connect(`${server.applicationUrl.replace('http', 'ws')}/ws?role=overlay`);
    await page.waitFor((m) => m.type === 'hello');
    faults.failWith = 'EIO';
    expect((await command(server, 'set_event_name', { name: 'not saved' })).status).toBe(507);
    await page.waitFor((m) => m.event === 'hud.state' && m.data.storage?.ok === false);
    const from = page.received.length;

    // The game goes on, with a substitute in slot 1.
    const substituted = structuredClone(capture);
    const first = Object.values<Frame>(substituted.allplayers).find((p) => p.name === 'Twistzz') as Frame;
    first.name = 'substitute';
    for (let i = 0; i < 20; i++) expect((await post(substituted)).status).toBe(200);
    await server.service.store.durable();

    expect(rosterEvents(page.received.slice(from))).toEqual([]);
    const failing = (await get(server, '/api/state')).body.state;
    expect(failing.roster).toEqual(saved);
    expect(failing.storage).toEqual({ ok: false, reason: expect.stringContaining('input/output error') });
    expect(server.service.game.status().notes).toContainEqual(expect.stringContaining('storage is failing'));
    // The live view went on: the page saw the substitute's name there.
    expect(
      page.received
        .slice(from)
        .some(
          (m) =>
            m.type === 'game' &&
            Object.values(m.live?.players ?? {}).some((p: any) => p?.name === 'substitute'),
        ),
    ).toBe(true);

    // The disk works again: the store notices by itself, and the held roster applies without a frame.
    const recovered = page.received.length;
    faults.failWith = null;
    const applied = await page.waitFor(
      (m) => m.event === 'hud.state' && names(m.data.roster ?? []).includes('substitute'),
    );
    expect(names(applied.data.roster)).toEqual(
      names(saved).map((name: string) => (name === 'Twistzz' ? 'substitute' : name)),
    );
    await server.service.store.durable();
    expect(rosterEvents(page.received.slice(recovered))).toHaveLength(1);
    expect((await get(server, '/api/state')).body.state.storage).toEqual({ ok: true, reason: null });
    expect(server.service.game.status().notes).not.toContainEqual(
      expect.stringContaining('storage is failing'),
    );
    page.close();
    await server.close();

    const again = await build({ dataDir });
    expect(names((await get(again, '/api/state')).body.state.roster)).toContain('substitute');
  });
});
