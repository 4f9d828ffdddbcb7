/**
 * Every message the server sends, serialised by a serialiser compiled from its protocol schema
 * (fast-json-stringify, as Fastify serialises its answers): one per message type and one per event.
 * A message is serialised once, whatever the number of clients it goes to; each serialiser is
 * compiled with its first message (serializerOf).
 */
import { Type } from '@sinclair/typebox';
import { contractOf } from '../protocol/commands.ts';
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

/**
 * A command's result message, its `result` serialised by the command's result schema
 * (src/protocol/commands.ts) as over HTTP; made with the command's first answer.
 */
const BY_ACTION = new Map<string, Serialize>();
function resultOf(action: string): Serialize {
  let serialize = BY_ACTION.get(action);
  if (!serialize) {
    const contract = contractOf(action);
    // A result of no command is never a success (the dispatcher refuses the name): kept untyped.
    if (!contract) return BY_TYPE.resultOk;
    serialize = serializerOf(
      Type.Object({ ...resultOk.properties, result: contract.result }, { additionalProperties: false }),
    );
    BY_ACTION.set(action, serialize);
  }
  return serialize;
}

/** The JSON text of one server message. */
export function serializeMessage(message: ServerMessage): string {
  switch (message.type) {
    case 'event': {
      const serialize = BY_EVENT.get(message.event);
      if (!serialize) throw new Error(`no event ${message.event} in the protocol`);
      return serialize(message);
    }
    case 'result':
      return message.ok ? resultOf(message.action)(message) : BY_TYPE.resultFailed(message);
    default:
      return BY_TYPE[message.type](message);
  }
}
