/**
 * Every message the server sends, serialised by a serialiser compiled from its protocol schema
 * (fast-json-stringify, as Fastify serialises its answers): one per message type and one per event.
 * A message is serialised once, whatever the number of clients it goes to; each serialiser is
 * compiled with its first message (serializerOf).
 */
import { GameMessage } from '../protocol/game.ts';
import type { Serialize } from '../protocol/serializer-schema.ts';
import { serializerOf } from '../protocol/serializer-schema.ts';
import type { ServerMessage } from '../protocol/websocket.ts';
import {
  ErrorMessage,
  EVENT_MESSAGES,
  HelloMessage,
  PongMessage,
  ResultMessage,
  SnapshotAnswer,
} from '../protocol/websocket.ts';

const [resultOk, resultFailed] = ResultMessage.anyOf;
const BY_TYPE = {
  hello: serializerOf(HelloMessage),
  snapshot: serializerOf(SnapshotAnswer),
  pong: serializerOf(PongMessage),
  error: serializerOf(ErrorMessage),
  game: serializerOf(GameMessage),
  resultOk: serializerOf(resultOk),
  resultFailed: serializerOf(resultFailed),
};
const BY_EVENT = new Map<string, Serialize>(
  EVENT_MESSAGES.map((schema) => [schema.properties.event.const, serializerOf(schema)]),
);

/** The JSON text of one server message. */
export function serializeMessage(message: ServerMessage): string {
  switch (message.type) {
    case 'event': {
      const serialize = BY_EVENT.get(message.event);
      if (!serialize) throw new Error(`no event ${message.event} in the protocol`);
      return serialize(message);
    }
    case 'result':
      return message.ok ? BY_TYPE.resultOk(message) : BY_TYPE.resultFailed(message);
    default:
      return BY_TYPE[message.type](message);
  }
}
