import type { FastifyBaseLogger } from 'fastify';
import { LogController } from 'fastify';
import type { Logger } from 'pino';
import type { Access } from '../access/access.ts';
import type { Transport } from './client-error.ts';
import { clientErrorHandler, frameworkErrorHandler, MAX_HEADER_BYTES } from './client-error.ts';
import { timeoutOptions } from './connection-limits.ts';

/** The largest body a request may carry. */
export const BODY_LIMIT = 64 * 1024;

/** The Fastify options both servers share: limits, shutdown, and failures before routing. */
/** Which server: its failures before routing are listed under its transport (`http` or `app`). */
export function serverOptions(access: Access, logger: Logger, transport: Transport) {
  return {
    loggerInstance: logger as FastifyBaseLogger,
    // Requests are logged once each by the access layer, not twice by Fastify.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    return503OnClosing: true,
    // A shutdown lets requests in progress finish and closes idle keep-alive sockets; WebSockets are
    // closed with 1001 by the WebSocket plugin's preClose.
    forceCloseConnections: 'idle' as const,
    routerOptions: { ignoreTrailingSlash: true },
    // Failures before routing answer in the service's envelope too (src/http/client-error.ts).
    frameworkErrors: frameworkErrorHandler(access, transport),
    clientErrorHandler: clientErrorHandler(access, transport),
    ...timeoutOptions,
    // Node's answer to an HTTP/1.1 request without Host is a bare 400: the access hooks answer it in
    // the envelope instead (missingHost).
    http: { ...timeoutOptions.http, maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false },
  };
}
