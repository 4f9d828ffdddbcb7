import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { RateLimitedError } from '../access/rate-limit.ts';
import type { ErrorCode } from '../protocol/errors.ts';
import { ERROR_STATUS, ServiceError } from '../protocol/errors.ts';

declare module 'fastify' {
  interface FastifyReply {
    /** The failure a failed answer sent (its code and message), for the log and the recent-requests list. */
    failure: ServiceError | null;
  }
}

/** Fastify's own errors, each as the service's code with a message a person can act on. */
const FASTIFY_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    message: 'send the payload as JSON with the header Content-Type: application/json',
  },
  FST_ERR_CTP_INVALID_TYPE: {
    code: 'unsupported_media_type',
    message: 'the Content-Type header is not valid',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', message: 'the body is too large' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'invalid_payload',
    message: 'the Content-Length header does not match the body',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_payload', message: 'the JSON body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_payload', message: 'the body is not valid JSON' },
};

/**
 * The service's code for a status that Fastify or a plugin chose. A 5xx is a fault of ours and stays
 * unknown, so it is logged; where a status has two codes, the general one (not_found) wins.
 */
const BY_STATUS = new Map<number, ErrorCode>(
  (Object.entries(ERROR_STATUS) as Array<[ErrorCode, number]>)
    .filter(([, status]) => status < 500)
    .map(([code, status]) => [status, code]),
);

/** Any error as a ServiceError; null for a fault of ours (the caller logs it and answers 500). */
export function toServiceError(error: unknown): ServiceError | null {
  if (error instanceof ServiceError) return error;
  const { code, statusCode, message } = (error ?? {}) as {
    code?: string;
    statusCode?: number;
    message?: string;
  };
  const known = code ? FASTIFY_ERRORS[code] : undefined;
  if (known) return new ServiceError(known.code, known.message);
  if (error instanceof SyntaxError)
    return new ServiceError('invalid_payload', `the body is not valid JSON: ${error.message}`);
  const byStatus = statusCode !== undefined ? BY_STATUS.get(statusCode) : undefined;
  if (byStatus) return new ServiceError(byStatus, message ?? byStatus);
  return null;
}

/** Answers a failure in the spec's envelope, with the status its code has. */
export function sendError(reply: FastifyReply, error: ServiceError): FastifyReply {
  if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
  reply.failure = error;
  return reply.code(error.status).send(error.toBody());
}

/**
 * Every failure as `{ ok: false, error, message }`: thrown errors, Fastify's own, unknown paths (404)
 * and known paths with another method (405 with Allow).
 */
async function errorEnvelopePlugin(app: FastifyInstance): Promise<void> {
  app.decorateReply('failure', null);

  // Method + path patterns, for telling a wrong method (405) from an unknown path (404).
  const routes: Array<{ pattern: RegExp; methods: Set<string> }> = [];
  app.addHook('onRoute', ({ url, method }) => {
    const pattern = new RegExp(`^${url.replace(/:[^/]+/g, '[^/]+')}/?$`);
    let entry = routes.find((route) => route.pattern.source === pattern.source);
    if (!entry) {
      entry = { pattern, methods: new Set() };
      routes.push(entry);
    }
    for (const m of [method].flat()) entry.methods.add(m);
  });

  app.setErrorHandler((error, request, reply) => {
    const known = toServiceError(error);
    if (known) return sendError(reply, known);
    request.log.error({ err: error, url: request.url }, 'request failed');
    return sendError(reply, new ServiceError('internal_error', 'internal error: see the service log'));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // Every route the path matches: /internal/requests is GET's, and POST's through /internal/:action.
    const methods = new Set(
      routes.filter((route) => route.pattern.test(path)).flatMap((route) => [...route.methods]),
    );
    if (methods.size === 0)
      return sendError(reply, new ServiceError('not_found', `no route ${request.method} ${path}`));
    const allowed = [...methods].filter((m) => m !== 'HEAD').join(', ');
    reply.header('allow', allowed);
    return sendError(
      reply,
      new ServiceError('method_not_allowed', `${request.method} is not allowed on ${path}: use ${allowed}`),
    );
  });
}

export default fp(errorEnvelopePlugin, { name: 'error-envelope' });
