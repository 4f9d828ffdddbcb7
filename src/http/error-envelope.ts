import type { ErrorCode } from '../errors.ts';
import { ServiceError } from '../errors.ts';

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

const BY_STATUS: Record<number, ErrorCode> = {
  400: 'invalid_payload',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};

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
  const byStatus = statusCode !== undefined ? BY_STATUS[statusCode] : undefined;
  if (byStatus) return new ServiceError(byStatus, message ?? byStatus);
  return null;
}
