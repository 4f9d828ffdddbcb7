/**
 * Every message the server sends, serialised by a serialiser compiled from its protocol schema
 * (fast-json-stringify, as Fastify serialises its answers): one per message type and one per event.
 * A message is serialised once, whatever the number of clients it goes to.
 */
import type { TSchema } from '@sinclair/typebox';
import fastJson from 'fast-json-stringify';
import { GameMessage } from '../protocol/game.ts';
import { forSerializer } from '../protocol/serializer-schema.ts';
import type { ServerMessage } from '../protocol/websocket.ts';
import {
  ErrorMessage,
  EVENT_MESSAGES,
  HelloMessage,
  PongMessage,
  ResultMessage,
  SnapshotAnswer,
} from '../protocol/websocket.ts';

type Serialize = (message: unknown) => string;

/**
 * Compiled when first used: compiling all of them (a few dozen schemas) was a tenth of the
 * start-up, before the first request could be answered, and most event types come much later.
 */
function compile(schema: TSchema): Serialize {
  let serialize: Serialize | null = null;
  const compiled = () => (serialize ??= fastJson(forSerializer(schema) as object) as Serialize);
  return (message) => compiled()(message);
}

const [resultOk, resultFailed] = ResultMessage.anyOf;
const BY_TYPE = {
  hello: compile(HelloMessage),
  snapshot: compile(SnapshotAnswer),
  pong: compile(PongMessage),
  error: compile(ErrorMessage),
  game: compile(GameMessage),
  resultOk: compile(resultOk),
  resultFailed: compile(resultFailed),
};
const BY_EVENT = new Map<string, Serialize>(
  EVENT_MESSAGES.map((schema) => [schema.properties.event.const, compile(schema)]),
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
