/** The HTTP routes' answer schemas: a route's success answer beside the error envelope every route shares. */
import type { TProperties } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import { ErrorEnvelopeSchema } from './answers.ts';

/** A success answer: `ok: true` and the route's own fields. */
export const okAnswer = <P extends TProperties>(properties: P) =>
  Type.Object({ ok: Type.Literal(true), ...properties });

/** A route's response schemas: its success answer, and the error envelope for every failure. */
export const answers = <S extends ReturnType<typeof okAnswer>>(success: S) => ({
  200: success,
  '4xx': ErrorEnvelopeSchema,
  '5xx': ErrorEnvelopeSchema,
});
