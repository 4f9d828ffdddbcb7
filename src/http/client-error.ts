/**
 * Requests answered before routing: a path Fastify cannot decode, and requests Node's HTTP parser
 * rejects (unknown method, two Content-Length headers, request line or headers over the limit,
 * time-outs). They get the service's envelope like any other failure, and a peer that is not this
 * machine gets its access answer (401/403) instead of any detail about what was wrong.
 */
import { type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Access } from '../access/access.ts';
import { decideAccess } from '../access/access-policy.ts';
import { extractToken } from '../access/access-token.ts';
import { pathOf, peerOf } from '../access/peer.ts';
import { canonicalAddress } from '../net/address-class.ts';
import { ServiceError } from '../protocol/errors.ts';
import { sendError } from './error-envelope.ts';
import { hostRefusal, missingHost } from './host-check.ts';

/** The server a failure before routing reached: the automation server (`http`) or the application server (`app`). */
export type Transport = 'http' | 'app';

/** Request line plus headers, in bytes (Node's default, written down so the docs can name it). */
export const MAX_HEADER_BYTES = 16 * 1024;

type ClientErrorHandler = NonNullable<FastifyServerOptions['clientErrorHandler']>;

/**
 * The address class and token answer for a request the router will not see. `headers` is undefined
 * when the parser gave up before reading them: then no token could be read, so a device on the local
 * network gets 401 even if it sent one.
 */
function accessRefusal(
  access: Access,
  socket: Socket | undefined,
  headers: FastifyRequest['headers'] | undefined,
): ServiceError | null {
  const peer = peerOf(socket, '');
  if (peer.class === 'loopback') return null;
  const decision = decideAccess({
    address: peer.address,
    lanMode: access.lanMode(),
    token: access.token(),
    presentedToken: headers ? extractToken(headers) : undefined,
  });
  return decision.allow ? null : decision.error;
}

const FRAMEWORK_ERRORS: Record<string, (path: string) => ServiceError> = {
  FST_ERR_BAD_URL: (path) =>
    new ServiceError('bad_request', `the path ${path} is not valid percent-encoding (write % as %25)`),
  FST_ERR_MAX_PARAM_LENGTH: () =>
    new ServiceError('uri_too_long', 'a part of the path is too long: no route has one that long'),
};

/**
 * The access answer for a request with headers that the router will not see, in the order of a
 * routed request: Host, the rate limit, then address class and token.
 */
async function earlyRefusal(
  access: Access,
  socket: Socket | undefined,
  headers: FastifyRequest['headers'],
  fallbackAddress = '',
): Promise<ServiceError | null> {
  const peer = peerOf(socket, fallbackAddress);
  return (
    hostRefusal(headers.host) ??
    (peer.class === 'loopback' ? null : await rateLimitRefusal(access, peer.address)) ??
    accessRefusal(access, socket, headers)
  );
}

/** Fastify's `frameworkErrors`: a path it cannot decode, before any hook has run. */
export function frameworkErrorHandler(access: Access, transport: Transport) {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const socket = request.raw.socket;
    const path = pathOf(request.raw.url ?? '');
    const failure =
      (await earlyRefusal(access, socket, request.headers, request.ip)) ??
      missingHost(request) ??
      FRAMEWORK_ERRORS[error.code]?.(path) ??
      new ServiceError('bad_request', `the request cannot be routed: ${error.message}`);
    access.recent.add({
      transport,
      request: `${request.method} ${path}`,
      status: failure.status,
      error: failure.code,
      message: failure.message,
      address: peerOf(socket, request.ip).address,
    });
    // A WebSocket upgrade answered here has no server behind its response to end the connection.
    if (request.headers.upgrade !== undefined) {
      reply.header('connection', 'close');
      reply.raw.once('finish', () => socket.destroySoon());
    }
    return sendError(reply, failure);
  };
}

const rateLimitRefusal = (access: Access, address: string): Promise<ServiceError | null> =>
  access.rateLimit.consume(address).then(
    () => null,
    (limited: unknown) => {
      if (limited instanceof ServiceError) return limited;
      throw limited;
    },
  );

/** What the parser could not take, as the service's code. */
function parseFailure(error: Parameters<ClientErrorHandler>[0]): ServiceError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ServiceError('request_timeout', 'the request did not arrive in time');
    case 'HPE_HEADER_OVERFLOW':
      return inRequestLine(error)
        ? new ServiceError('uri_too_long', `the address is over ${MAX_HEADER_BYTES / 1024} KiB`)
        : new ServiceError(
            'headers_too_large',
            `the request line and headers are over ${MAX_HEADER_BYTES / 1024} KiB`,
          );
    case 'HPE_INVALID_METHOD':
      return new ServiceError('not_implemented', 'unknown HTTP method: the service answers GET and POST');
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return new ServiceError('bad_request', 'the length of the body is not clear: send one Content-Length');
    default:
      return new ServiceError('bad_request', `the request is not valid HTTP/1.1 (${error.code})`);
  }
}

/**
 * Whether the parser ran over the limit while still in the request line: the packet it failed on
 * starts a request and has no line end before the point of failure. A request line that arrived in
 * several packets is judged by the last one, so it may read as 431 instead of 414.
 */
function inRequestLine(error: Parameters<ClientErrorHandler>[0]): boolean {
  const packet = Buffer.isBuffer(error.rawPacket) ? (error.rawPacket as Buffer) : undefined;
  if (packet === undefined || !/^[A-Z]+ /.test(packet.subarray(0, 16).toString('latin1'))) return false;
  const lineEnd = packet.indexOf('\r\n');
  return lineEnd === -1 || lineEnd >= error.bytesParsed;
}

/**
 * Fastify's `clientErrorHandler`: Node's `clientError` event. Writes a raw HTTP/1.1 answer and
 * closes the connection: after a parse error the rest of the stream cannot be trusted.
 */
export function clientErrorHandler(access: Access, transport: Transport): ClientErrorHandler {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // A time-out says nothing about the request, so every peer hears it as it is.
    const refusal =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? null : accessRefusal(access, socket, undefined);
    const failure = refusal ?? parseFailure(error);
    // Behind a response already under way on this connection, another one would corrupt the stream.
    const busy = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (!socket.writable || busy) {
      socket.destroy();
      return;
    }
    answerRaw(access, transport, socket, 'unreadable request', failure);
  };
}

/**
 * Node hands a CONNECT request (a proxy's tunnel) to a `connect` listener and, without one, drops
 * the connection unanswered. This is no proxy: 501 in the envelope, after the access answer.
 */
export function answerConnect(access: Access, server: Server, transport: Transport): void {
  const notAProxy = () =>
    new ServiceError(
      'not_implemented',
      'CONNECT is not served: this is no proxy (the service answers GET and POST)',
    );
  server.on('connect', (request: IncomingMessage, socket: Socket) => {
    earlyRefusal(access, socket, request.headers).then(
      (refusal) =>
        answerRaw(access, transport, socket, `CONNECT ${request.url ?? ''}`, refusal ?? notAProxy()),
      () => socket.destroy(),
    );
  });
}

/** A whole HTTP/1.1 answer written on the socket, recorded, and the connection closed. */
function answerRaw(
  access: Access,
  transport: Transport,
  socket: Socket,
  request: string,
  failure: ServiceError,
): void {
  access.recent.add({
    transport,
    request,
    status: failure.status,
    error: failure.code,
    message: failure.message,
    address: canonicalAddress(socket.remoteAddress) ?? 'unknown',
  });
  const body = JSON.stringify(failure.toBody());
  socket.end(
    `HTTP/1.1 ${failure.status} ${STATUS_CODES[failure.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  // A peer that keeps sending must not keep the socket: gone once the answer is written.
  socket.destroySoon();
}
