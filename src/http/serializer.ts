import type { FastifyInstance } from 'fastify';
import { serializerOf } from '../protocol/serializer-schema.ts';

/**
 * HTTP answers are serialised from their schemas as the WebSocket's messages are (forSerializer):
 * without it, a union member with a format (a team's logo URL in `teamA: Team or null`) made the
 * serialiser refuse a match the service had accepted, and GET /api/match answered 500. Each route's
 * is compiled on its first answer (serializerOf).
 */
export function useServiceSerializer(app: FastifyInstance): void {
  app.setSerializerCompiler(({ schema }) => serializerOf(schema));
}
