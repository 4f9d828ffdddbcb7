/** The WebSocket gateway's parts on their own: serialiser, fan-out and message handlers. */
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { GameMessage } from '../../src/protocol/game.ts';
import { forSerializer } from '../../src/protocol/serializer-schema.ts';
import type { EventMessage, ServerMessage } from '../../src/protocol/websocket.ts';
import {
  CLOSE,
  EVENT_MESSAGES,
  MAX_BUFFERED_BYTES,
  ServerMessage as ServerMessageSchema,
} from '../../src/protocol/websocket.ts';
import { serializeMessage } from '../../src/ws/serialize.ts';
import type { WsClient } from '../../src/ws/ws-fanout.ts';
import { WsFanout, wantsGame } from '../../src/ws/ws-fanout.ts';
import type { WsContext } from '../../src/ws/ws-messages.ts';
import { handleMessage } from '../../src/ws/ws-messages.ts';
import { build } from '../helpers/build.ts';

const checkServerMessage = TypeCompiler.Compile(ServerMessageSchema);

/** A socket that keeps what is sent to it. */
function fakeSocket(bufferedAmount = 0) {
  const sent: string[] = [];
  const closed: Array<[number, string]> = [];
  const socket = {
    OPEN: 1,
    readyState: 1,
    bufferedAmount,
    send: (text: string) => sent.push(text),
    close: (code: number, reason: string) => closed.push([code, reason]),
  } as unknown as WebSocket;
  return { socket, sent, closed };
}

const clientOf = (socket: WebSocket, authenticated = true): WsClient => ({
  socket,
  address: '127.0.0.1',
  remote: false,
  authenticated,
  alive: true,
  panel: false,
  session: null,
  role: null,
  grant: 'full',
  game: false,
});

describe('serializeMessage', () => {
  const samples: ServerMessage[] = [
    { type: 'event', event: 'hud.state', revision: 3, data: { scoreboardVisible: true } },
    { type: 'event', event: 'veto.reveal', revision: 4, data: { revealed: 1, total: 3, instant: false } },
    { type: 'event', event: 'stats.player', revision: 5, data: { player: null, durationMs: null } },
    {
      type: 'event',
      event: 'stats.player',
      revision: 6,
      data: { player: { slot: 3, provider: 'live' }, durationMs: 5000 },
    },
    {
      type: 'event',
      event: 'replay.saved',
      revision: 6,
      data: { path: '/tmp/Replay "1".mkv', folder: '/tmp' },
    },
    { type: 'pong', id: 'p', revision: 2 },
    { type: 'error', id: null, error: 'invalid_payload', message: 'the message is not JSON' },
    {
      type: 'result',
      id: 7,
      // A result is serialised by its command's result schema (src/protocol/commands.ts): a real one.
      action: 'toggle_stats',
      ok: true,
      state: { revision: 2, statsVisible: true },
      result: { player: { slot: 3, provider: 'live' }, stats: null },
    },
    { type: 'result', id: '1', action: 'x', ok: false, status: 404, error: 'unknown_action', message: 'no' },
  ];

  it('writes what JSON.stringify writes, for each kind of message', () => {
    for (const message of samples) {
      const text = serializeMessage(message);
      expect(JSON.parse(text)).toEqual(message);
      expect(checkServerMessage.Check(JSON.parse(text))).toBe(true);
    }
  });

  it('leaves out fields the protocol does not have (nothing internal leaks)', () => {
    const message = {
      type: 'event',
      event: 'veto.reveal',
      revision: 1,
      data: { revealed: 0, total: 0, instant: true, secret: 'x' },
    } as unknown as EventMessage;
    expect(JSON.parse(serializeMessage(message)).data).toEqual({ revealed: 0, total: 0, instant: true });
  });

  it('has a serialiser for every event of the protocol', () => {
    for (const schema of EVENT_MESSAGES) {
      expect(() =>
        serializeMessage({ type: 'event', event: schema.properties.event.const } as never),
      ).not.toThrow(/no event/);
    }
  });

  it('reads unions of constants as plain strings', () => {
    expect(forSerializer({ anyOf: [{ const: 'a' }, { const: 'b' }] })).toEqual({ type: 'string' });
    expect(forSerializer({ anyOf: [{ type: 'integer' }, { type: 'null' }] })).toEqual({
      type: ['integer', 'null'],
    });
  });

  it('writes an object or null, and an array or null, without checking which it is', () => {
    const player = { type: 'object', properties: { name: { type: 'string' } } };
    expect(forSerializer({ anyOf: [player, { type: 'null' }] })).toEqual({ ...player, nullable: true });
    const point = { type: 'array', items: [{ type: 'number' }, { type: 'number' }] };
    expect(forSerializer({ anyOf: [point, { type: 'null' }] })).toEqual({ ...point, nullable: true });
    // Without a type beside it, `nullable` means nothing to the serialiser: the union stays.
    const either = { anyOf: [{ anyOf: [player, point] }, { type: 'null' }] };
    expect(forSerializer(either)).toEqual(either);
    // A game message with players that left (null) and players whole.
    const message: ServerMessage = {
      type: 'game',
      now: 1,
      full: false,
      live: { bomb: null, players: { '1': null } },
    };
    expect(JSON.parse(serializeMessage(message))).toEqual(message);
  });
});

describe('WsFanout', () => {
  it('serialises an event once and sends it to authenticated clients only', () => {
    const fanout = new WsFanout();
    const a = fakeSocket();
    const b = fakeSocket();
    const waiting = fakeSocket();
    fanout.clients.add(clientOf(a.socket));
    fanout.clients.add(clientOf(b.socket));
    fanout.clients.add(clientOf(waiting.socket, false));
    fanout.broadcast({ type: 'event', event: 'hud.state', revision: 1, data: { vetoVisible: true } });
    expect(a.sent).toHaveLength(1);
    expect(b.sent[0]).toBe(a.sent[0]);
    expect(waiting.sent).toEqual([]);
  });

  it("sends the game data to the clients that take it, and reuses the other gateway's bytes", () => {
    const [automation, application] = [new WsFanout(), new WsFanout()];
    const surface = fakeSocket();
    const script = fakeSocket();
    const page = fakeSocket();
    automation.clients.add(clientOf(surface.socket));
    automation.clients.add({ ...clientOf(script.socket), game: true });
    application.clients.add({ ...clientOf(page.socket), game: true });
    const message: GameMessage = { type: 'game', now: 1, full: false, live: { bomb: null } };
    for (const fanout of [automation, application]) fanout.broadcast(message, wantsGame);
    expect(surface.sent).toEqual([]);
    expect(script.sent).toHaveLength(1);
    // One serialisation for both gateways: the same bytes.
    expect(page.sent[0]).toBe(script.sent[0]);
  });

  it('closes a client that stopped reading instead of buffering more for it', () => {
    const fanout = new WsFanout();
    const slow = fakeSocket(MAX_BUFFERED_BYTES + 1);
    fanout.clients.add(clientOf(slow.socket));
    fanout.broadcast({ type: 'event', event: 'hud.state', revision: 1, data: { vetoVisible: true } });
    expect(slow.sent).toEqual([]);
    expect(slow.closed).toEqual([[CLOSE.tooSlow, 'too slow: messages were not read']]);
  });

  it('closes the clients a rule selects', () => {
    const fanout = new WsFanout();
    const local = fakeSocket();
    const remote = fakeSocket();
    fanout.clients.add(clientOf(local.socket));
    fanout.clients.add({ ...clientOf(remote.socket), remote: true });
    fanout.close((client) => client.remote, CLOSE.forbidden, 'off');
    expect(remote.closed).toEqual([[CLOSE.forbidden, 'off']]);
    expect(local.closed).toEqual([]);
  });
});

describe('message handlers', () => {
  async function setup() {
    const server = await build();
    const fanout = new WsFanout();
    const records: Array<[string, number, string | undefined, string | undefined]> = [];
    const context: WsContext = {
      deps: server.service,
      transport: 'ws',
      fanout,
      panelStatus: null,
      record: (_client, request, failure) =>
        records.push([request, failure?.status ?? 200, failure?.code, failure?.message]),
      fault: () => {},
    };
    const fake = fakeSocket();
    const client = clientOf(fake.socket);
    const received = () => fake.sent.map((text) => JSON.parse(text));
    return { server, context, client, received, records };
  }

  it('ping answers pong with the revision; snapshot answers the whole state', async () => {
    const { context, client, received } = await setup();
    handleMessage(context, client, { type: 'ping', id: 1 });
    handleMessage(context, client, { type: 'snapshot', id: 's' });
    const [pong, snapshot] = received();
    expect(pong).toEqual({ type: 'pong', id: 1, revision: 0 });
    expect(snapshot).toMatchObject({
      type: 'snapshot',
      id: 's',
      snapshot: { revision: 0, veto: { active: false } },
    });
  });

  it('a trigger runs through the dispatcher and is recorded with its result', async () => {
    const { server, context, client, received, records } = await setup();
    handleMessage(context, client, { type: 'trigger', id: 'a', action: 'show_veto' });
    handleMessage(context, client, { type: 'trigger', id: 'b', action: 'no_such' });
    await server.service.store.durable();
    await new Promise((resolve) => setImmediate(resolve));
    expect(received()).toEqual([
      expect.objectContaining({ type: 'result', id: 'b', ok: false, status: 404, error: 'unknown_action' }),
      expect.objectContaining({
        type: 'result',
        id: 'a',
        ok: true,
        state: { revision: 1, vetoVisible: true },
      }),
    ]);
    expect(records).toEqual([
      ['trigger no_such', 404, 'unknown_action', expect.stringContaining('no_such')],
      ['trigger show_veto', 200, undefined, undefined],
    ]);
  });

  it('answers a message outside the protocol with an error naming the problem, and a second auth too', async () => {
    const { context, client, received } = await setup();
    handleMessage(context, client, undefined);
    handleMessage(context, client, { type: 'dance', id: 9 });
    handleMessage(context, client, { type: 'auth', token: 'x' });
    expect(received()).toEqual([
      { type: 'error', id: null, error: 'invalid_payload', message: 'the message is not JSON' },
      expect.objectContaining({ type: 'error', id: 9, error: 'invalid_payload' }),
      { type: 'error', id: null, error: 'invalid_payload', message: 'already authenticated' },
    ]);
  });
});
