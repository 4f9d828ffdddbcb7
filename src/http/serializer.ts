import fastJson from 'fast-json-stringify';
import type { FastifyInstance } from 'fastify';
import { forSerializer } from '../protocol/serializer-schema.ts';

/**
 * HTTP answers are serialised from their schemas as the WebSocket's messages are (forSerializer):
 * without it, a union member with a format (a team's logo URL in `teamA: Team or null`) made the
 * serialiser refuse a match the service had accepted, and GET /api/match answered 500.
 */
export function useServiceSerializer(app: FastifyInstance): void {
  app.setSerializerCompiler(
    ({ schema }) => fastJson(forSerializer(schema) as object) as (data: unknown) => string,
  );
}
