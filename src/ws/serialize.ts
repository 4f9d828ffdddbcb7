/**
 * Every message the server sends, serialised by a serialiser compiled from its protocol schema
 * (fast-json-stringify, as Fastify serialises its answers): one per message type and one per event.
 * A message is serialised once, whatever the number of clients it goes to.
 */
import type { TSchema } from '@sinclair/typebox';
import fastJson from 'fast-json-stringify';
import { GameMessage } from '../protocol/game.ts';
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
 * The schema as the serialiser reads it fastest: a union of string or number constants is just a
 * string or number (the value was checked where it was made), `X or null` of a plain type is one
 * type list, and formats are left out. Everything else stays as written.
 */
type JsonSchema = { [key: string]: unknown };

export function forSerializer(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forSerializer);
  if (schema === null || typeof schema !== 'object') return schema;
  const { anyOf: members, description } = schema as { anyOf?: JsonSchema[]; description?: string };
  if (members) {
    const constType = typeof members[0]?.const;
    if (
      (constType === 'string' || constType === 'number') &&
      members.every((m) => typeof m.const === constType)
    ) {
      return { type: constType, ...(description ? { description } : {}) };
    }
    const [value, other] = members;
    const plain = (s: JsonSchema | undefined) =>
      ['string', 'number', 'integer', 'boolean'].includes(s?.type as string);
    if (members.length === 2 && other?.type === 'null' && plain(value))
      return { type: [value?.type, 'null'] };
  }
  // A format (the team logo's url) was checked where the value was made; the serialiser's own
  // check of it, when it picks a member of a union, would refuse a logo the service accepted.
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => key !== 'format')
      .map(([key, value]) => [key, typeof value === 'object' ? forSerializer(value) : value]),
  );
}

const compile = (schema: TSchema): Serialize => fastJson(forSerializer(schema) as object) as Serialize;

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
