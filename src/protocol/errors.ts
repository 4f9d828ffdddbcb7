/**
 * The one error type of the service. Every failure, over HTTP or the WebSocket, travels as
 * `{ ok: false, error: code, message }`; the HTTP status is looked up here and nowhere else.
 */
export const ERROR_STATUS = {
  invalid_payload: 400,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  unknown_action: 404,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  not_implemented: 501,
  upstream_error: 502,
  unavailable: 503,
  upstream_timeout: 504,
  storage_failed: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** V8's Error (Node, Chromium): the browser pages' types do not declare its stackTraceLimit. */
const V8Error = Error as ErrorConstructor & { stackTraceLimit?: number };

/**
 * An answer that says no (a refused command, a bad payload): an expected outcome, not a fault, so it
 * carries no stack trace. Capturing one cost a refused command a few microseconds, and nobody reads it.
 */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';

  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    const limit = V8Error.stackTraceLimit;
    V8Error.stackTraceLimit = 0;
    super(message);
    V8Error.stackTraceLimit = limit;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): { ok: false; error: ErrorCode; message: string } {
    return { ok: false, error: this.code, message: this.message };
  }
}

export const invalidPayload = (message: string) => new ServiceError('invalid_payload', message);
export const conflict = (message: string) => new ServiceError('conflict', message);
export const unavailable = (message: string) => new ServiceError('unavailable', message);
