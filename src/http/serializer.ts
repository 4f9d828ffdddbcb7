import fastJson from 'fast-json-stringify';
import type { FastifyInstance } from 'fastify';
import { forSerializer } from '../protocol/serializer-schema.ts';

/**
 * HTTP answers are serialised from their schemas as the WebSocket's messages are (forSerializer):
 * without it, a union member with a format (a team's logo URL in `teamA: Team or null`) made the
 * serialiser refuse a match the service had accepted, and GET /api/match answered 500.
 */
export function useServiceSerializer(app: FastifyInstance): void {
  app.setSerializerCompiler(({ schema }) => {
    // Compiled on the route's first answer: Fastify asks for every route's serialisers (and again
    // for each GET's HEAD) before the server listens, and compiling them all was a third of the
    // start-up.
    let serialize: Serialize | null = null;
    const compiled = () => (serialize ??= fastJson(forSerializer(schema) as object) as Serialize);
    return (data) => compiled()(data);
  });
}

type Serialize = (data: unknown) => string;
