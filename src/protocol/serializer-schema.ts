/**
 * The protocol's schemas as a compiled serialiser (fast-json-stringify) reads them fastest, and the
 * serialiser itself: shared by the HTTP answers (src/http/serializer.ts) and the WebSocket messages
 * (src/ws/serialize.ts).
 */
import fastJson from 'fast-json-stringify';

export type Serialize = (value: unknown) => string;

/**
 * A schema's serialiser, compiled when it is first used: the service has one per route and per
 * message type, and compiling them all before the servers listen was a third of the start-up
 * (Fastify asks for every route's, and again for each GET's HEAD; most event types come much later).
 */
export function serializerOf(schema: unknown): Serialize {
  let serialize: Serialize | null = null;
  const compiled = () => (serialize ??= fastJson(forSerializer(schema) as object) as Serialize);
  return (value) => compiled()(value);
}

/**
 * The schema as the serialiser reads it fastest: a union of string or number constants is just a
 * string or number (the value was checked where it was made), `X or null` of a plain type is one
 * type list, `X or null` of an object or an array is X marked nullable, and formats are left out.
 * Everything else stays as written.
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
    // `X or null` of an object or an array (a tuple too): X that writes null for null (`nullable`
    // needs the type beside it). As a union, the serialiser checks each value against X with ajv to
    // choose the member: for the ten players of a game message that was more than writing them.
    const written =
      members.length === 2 && other?.type === 'null' ? (forSerializer(value) as JsonSchema) : null;
    if (written?.type === 'object' || written?.type === 'array') return { ...written, nullable: true };
  }
  // A format (the team logo's url) was checked where the value was made; the serialiser's own
  // check of it, when it picks a member of a union, would refuse a logo the service accepted.
  return Object.fromEntries(
    Object.entries(schema)
      // A property named format (export_teams' result) is a schema, not a format: kept.
      .filter(([key, value]) => key !== 'format' || typeof value !== 'string')
      .map(([key, value]) => [key, typeof value === 'object' ? forSerializer(value) : value]),
  );
}
