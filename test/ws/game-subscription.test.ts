/**
 * Who gets the live game data (docs/websocket.md, "Subscriptions"): the pages of the application
 * server, and an automation client that asks in its address (`?subscribe=game`); a plain automation
 * client (a Stream Deck surface, a script) gets none of the 18 messages a second a match sends.
 * Over real sockets, with real frames POSTed as the game does.
 */
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, ok } from '../helpers/build.ts';
import type { Frame } from '../helpers/gsi.ts';
import { FAZE_NAVI, fixture, postAccepted, toCs2 } from '../helpers/gsi.ts';
import { connect, type TestSocket } from '../helpers/ws-client.ts';

const isGame = (message: { type: string }) => message.type === 'game';

/** A frame of the capture with one player hurt by `damage`: only that player changes. */
function hurt(frame: Frame, damage: number): Frame {
  const copy = structuredClone(frame);
  const player = Object.values<Frame>(copy.allplayers).find((p) => p.state.health > damage) as Frame;
  player.state.health -= damage;
  return copy;
}

async function greeted(url: string): Promise<{ socket: TestSocket; hello: any }> {
  const socket = await connect(url);
  const hello = await socket.next();
  expect(hello.type).toBe('hello');
  return { socket, hello };
}

const pageUrl = (server: RunningServer) => `${server.applicationUrl.replace('http', 'ws')}/ws?role=overlay`;

describe('live game data by subscription', () => {
  it('reaches the page and a client that asked while frames arrive, never a plain automation client', async () => {
    const server = await build();
    const frame = toCs2(await fixture(FAZE_NAVI));
    const plain = await greeted(`${server.wsUrl}/`);
    const asked = await greeted(`${server.wsUrl}/?subscribe=game`);
    const page = await greeted(pageUrl(server));
    expect(plain.hello.subscriptions).toEqual([]);
    expect(asked.hello.subscriptions).toEqual(['game']);
    expect(page.hello.subscriptions).toEqual(['game']);
    // Right after hello, the whole live view (nothing received yet).
    expect(await asked.socket.next()).toMatchObject({ type: 'game', full: true, live: { players: {} } });
    expect(await page.socket.next()).toMatchObject({ type: 'game', full: true });

    for (let i = 0; i < 5; i++) await postAccepted(server, hurt(frame, i));
    for (const { socket } of [asked, page]) {
      const changes = (m: any) => isGame(m) && !m.full && m.live?.players;
      const withPlayers = await socket.waitFor(changes);
      expect(Object.keys(withPlayers.live.players)).toHaveLength(10);
      // Each later frame changed one player: only that one went out.
      const later = socket.received.filter(changes).slice(1);
      expect(later).toHaveLength(4);
      for (const message of later) expect(Object.keys(message.live.players)).toHaveLength(1);
    }
    // The frames' lasting changes (roster, "receiving") reach every client as events; a command
    // after the frames reaches the plain client last, so it had its chance at every game message.
    await ok(server, 'toggle_scoreboard');
    await plain.socket.waitFor((m) => m.type === 'event' && m.data?.scoreboardVisible === true);
    expect(plain.socket.received.filter((m) => m.type === 'event' && m.data?.roster)).toHaveLength(1);
    expect(plain.socket.received.filter(isGame)).toEqual([]);
  });

  it('gives a client that asks once frames arrived the whole live view first, then what changed', async () => {
    const server = await build();
    const frame = toCs2(await fixture(FAZE_NAVI));
    await postAccepted(server, frame);
    const { socket } = await greeted(`${server.wsUrl}/?subscribe=game`);
    const full = await socket.next();
    expect(full).toMatchObject({ type: 'game', full: true, status: { receiving: true, frames: 1 } });
    expect(Object.keys(full.live.players)).toHaveLength(10);
    expect(full.live.observed).toMatchObject({ slot: 7 });

    await postAccepted(server, hurt(frame, 3));
    const next = await socket.waitFor((m) => isGame(m) && !m.full && m.live?.players);
    expect(Object.values(next.live.players)).toEqual([
      expect.objectContaining({ health: expect.any(Number) }),
    ]);
  });

  it('reads the names it knows from a list and leaves out the others', async () => {
    const server = await build();
    for (const [query, subscriptions] of [
      ['?subscribe=meters,game', ['game']],
      ['?subscribe=meters&subscribe=game', ['game']],
      ['?subscribe=meters', []],
      ['?subscribe=', []],
    ] as const) {
      const { socket, hello } = await greeted(`${server.wsUrl}/${query}`);
      expect(hello.subscriptions, query).toEqual(subscriptions);
      // The connection works whatever it asked for.
      socket.send({ type: 'ping', id: query });
      expect(await socket.waitFor((m) => m.type === 'pong')).toMatchObject({ id: query });
      expect(socket.received.filter(isGame)).toHaveLength(subscriptions.length);
      socket.close();
    }
  });
});
