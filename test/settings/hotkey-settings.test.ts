import { describe, expect, it } from 'vitest';
import { build, tempDir } from '../helpers/build.ts';
import { panelApi } from '../helpers/hud.ts';

describe('the keys of the on-air switches (settings hotkeys, over the panel API)', () => {
  it('start as F9 and F7, change per switch, survive a restart, and refuse a key another switch has', async () => {
    const dataDir = await tempDir();
    const server = await build({ dataDir });
    const api = await panelApi(server);

    const first = await api.settings({ hotkeys: { clean_feed: 'F2' } });
    expect(first.status).toBe(200);
    expect(first.body.settings.hotkeys).toMatchObject({
      scoreboard: 'F9',
      veto: 'F7',
      stats: null,
      clean_feed: 'F2',
      restore_feed: null,
    });

    // F9 is the scoreboard's: refused in words, nothing saved.
    const taken = await api.settings({ hotkeys: { restore_feed: 'F9' } });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({
      ok: false,
      error: 'conflict',
      message:
        'hotkeys.restore_feed: F9 is already the key of Scoreboard: clear it there first, or choose another key for Restore feed',
    });
    // The same key asked for two switches in one change is refused too.
    expect((await api.settings({ hotkeys: { stats: 'S', radar: 'S' } })).status).toBe(409);

    // Moving a key in one change works: the scoreboard gives F9 up as the restore takes it.
    const moved = await api.settings({ hotkeys: { scoreboard: 'F8', restore_feed: 'F9', veto: null } });
    expect(moved.status).toBe(200);
    expect(moved.body.settings.hotkeys).toMatchObject({ scoreboard: 'F8', restore_feed: 'F9', veto: null });

    // What is not a key, or not a switch, is refused before anything.
    expect((await api.settings({ hotkeys: { scoreboard: 'Enter' } })).status).toBe(400);
    expect((await api.settings({ hotkeys: { scoreboard: 'f8' } })).status).toBe(400);
    expect((await api.settings({ hotkeys: { coffee: 'F3' } })).status).toBe(400);
    expect((await api.settings({ hotkeys: {} })).status).toBe(400);

    await server.close();
    const restarted = await build({ dataDir });
    const again = await (await panelApi(restarted)).settings({ hotkeys: { stats: 'S' } });
    expect(again.body.settings.hotkeys).toMatchObject({
      scoreboard: 'F8',
      veto: null,
      stats: 'S',
      clean_feed: 'F2',
      restore_feed: 'F9',
    });
  });
});
