/**
 * The live players go on air under who the database says they are (issue 34): a real GOTV frame
 * (test/fixtures, FaZe vs NAVI) with some of its players saved under other names, over the real
 * HTTP and WebSocket: the `game` view's players carry the saved on-air name, real name, country and
 * photo, the game's name beside it; the roster (HUD state) the on-air name; unknown players keep the
 * game's name. A change of the database goes out to the pages at once.
 */
import { describe, expect, it } from 'vitest';
import { build, get, ok } from '../helpers/build.ts';
import { LIVE_PLAYERS, postLiveGame } from '../helpers/live-game.ts';
import { connect } from '../helpers/ws-client.ts';

const PHOTO = '/media/0123456789abcdef0123456789abcdef.png';

describe('on-air names from the database', () => {
  it('every player object of the game view carries the saved identity; unknown ones the game name', async () => {
    const server = await build();
    await ok(server, 'save_team', { name: 'Natus Vincere', tag: 'NAVI', country: 'UA' });
    const s1mple = (
      await ok(server, 'save_player', {
        steamid: LIVE_PLAYERS.s1mple.steamid,
        name: 'Саша',
        realName: 'Александр Костылев',
        country: 'UA',
        photo: PHOTO,
        team: 'NAVI',
      })
    ).result.player;
    await ok(server, 'save_player', { steamid: LIVE_PLAYERS.rain.steamid, name: '雨', country: 'NO' });
    const page = await connect(`${server.applicationUrl.replace('http', 'ws')}/ws?role=overlay`);
    await postLiveGame(server);
    const live = await page.waitFor(
      (m) => m.type === 'game' && Object.keys(m.live?.players ?? {}).length === 10,
    );
    const players = live.live.players;
    expect(players[LIVE_PLAYERS.s1mple.steamid]).toMatchObject({
      name: 'Саша',
      gameName: 's1mple',
      playerId: s1mple.id,
      realName: 'Александр Костылев',
      country: 'UA',
      photo: PHOTO,
      slot: LIVE_PLAYERS.s1mple.slot,
    });
    expect(players[LIVE_PLAYERS.rain.steamid]).toMatchObject({ name: '雨', gameName: 'rain', photo: null });
    expect(players[LIVE_PLAYERS.broky.steamid]).toMatchObject({
      name: 'broky',
      gameName: 'broky',
      playerId: null,
      country: null,
    });
    // The roster of the HUD state (the spec's { slot, name }) names them on air too.
    const roster = (await get(server, '/api/state')).body.state.roster as Array<{
      slot: number;
      name: string;
    }>;
    expect(roster.find((entry) => entry.slot === LIVE_PLAYERS.s1mple.slot)?.name).toBe('Саша');
    expect(roster.find((entry) => entry.slot === LIVE_PLAYERS.broky.slot)?.name).toBe('broky');

    // A player saved while the game runs goes out at once, without waiting for a frame.
    const from = page.received.length;
    await ok(server, 'save_player', { steamid: LIVE_PLAYERS.broky.steamid, name: 'Бро', country: 'LV' });
    const changed = await page.waitFor(
      (m) =>
        page.received.indexOf(m) >= from &&
        m.type === 'game' &&
        m.live?.players?.[LIVE_PLAYERS.broky.steamid],
    );
    expect(changed.live.players[LIVE_PLAYERS.broky.steamid]).toMatchObject({
      name: 'Бро',
      gameName: 'broky',
    });
    // Removed: the game's name again.
    await ok(server, 'remove_player', { player: LIVE_PLAYERS.s1mple.steamid });
    expect(server.service.game.live().players[LIVE_PLAYERS.s1mple.steamid]).toMatchObject({
      name: 's1mple',
      playerId: null,
      photo: null,
    });
    page.close();
  });
});
