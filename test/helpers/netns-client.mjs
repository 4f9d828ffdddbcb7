// The client half of the network namespace harness (test/helpers/netns.ts). It runs inside a test
// namespace under `ip netns exec`, so every socket it opens leaves from that namespace's address.
// Plain JavaScript on purpose: node starts it in ~50 ms, tsx would add several hundred.
//
// Protocol: one JSON object per line on stdin, one per line on stdout, matched by `id`.
//   {id, op: 'http', target: {host, port}, method, path, headers, body?, timeoutMs}
//       -> {id, type: 'result', result: HttpResult}
//   {id, op: 'burst', ...http fields, count, spreadMs}
//       -> {id, type: 'result', result: BurstResult}
//   {id, op: 'ws-open', target, path, headers, timeoutMs}
//       -> {id, type: 'ws', event: 'open' | 'refused' | 'message' | 'close' | 'error', at, ...}
//   {id, op: 'ws-send', data}    {id, op: 'ws-close', code?, reason?}
//   {id, op: 'raw', target, bytes, localAddress?, timeoutMs}
//       -> {id, type: 'result', result: {data, closed, error, elapsedMs}}   (bytes as sent, latin1)
//   {id, op: 'hold', target, count, expectClosed, timeoutMs, localAddress?}
//       -> {id, type: 'result', result: {connected, closed}}   once expectClosed closed, or at timeout
//   {id, op: 'release', hold}   ends the connections of an earlier hold
// When stdin ends, running requests finish, open WebSockets are dropped and the process exits.
import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';

const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const errorOf = (error) => ({ code: error?.code ?? 'ERROR', message: String(error?.message ?? error) });

const parseJson = (text) => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

// A zone id (fe80::1%eth0) is needed to reach a link-local address but is not part of the
// address a client names in Host or in a URL.
const withoutZone = (host) => host.split('%')[0];
const hostHeader = (target) => {
  const host = withoutZone(target.host);
  return `${net.isIPv6(host) ? `[${host}]` : host}:${target.port}`;
};

function httpRequest({
  target,
  method = 'GET',
  path = '/',
  headers = {},
  body,
  localAddress,
  timeoutMs = 5000,
}) {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, elapsedMs: Math.round(performance.now() - started) });
    };
    const fail = (error) => finish({ status: null, headers: {}, body: '', error: errorOf(error) });
    const hasHost = Object.keys(headers).some((name) => name.toLowerCase() === 'host');
    const request = http.request(
      {
        host: target.host,
        port: target.port,
        method,
        path,
        headers: hasHost ? headers : { host: hostHeader(target), ...headers },
        // A fresh connection per request: no answer depends on what an earlier request left behind.
        agent: false,
        localAddress,
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('error', fail);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          finish({
            status: response.statusCode ?? null,
            headers: response.headers,
            body: text,
            json: parseJson(text),
            error: null,
          });
        });
      },
    );
    const timer = setTimeout(() => {
      const error = new Error(`no answer within ${timeoutMs} ms`);
      error.code = 'ETIMEDOUT';
      request.destroy(error);
    }, timeoutMs);
    request.on('error', fail);
    request.end(body);
  });
}

async function burst({ count, spreadMs = 0, ...request }) {
  const started = performance.now();
  const responses = await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      if (spreadMs > 0) await sleep((index * spreadMs) / count);
      const { status, headers, json, error } = await httpRequest(request);
      return { status, retryAfter: headers['retry-after'] ?? null, json, error };
    }),
  );
  const counts = {};
  for (const { status, error } of responses) {
    const key = status === null ? (error?.code ?? 'ERROR') : String(status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return { responses, counts, elapsedMs: Math.round(performance.now() - started) };
}

/**
 * Writes bytes as they are and collects what comes back until the server closes the connection
 * (`closed: true`) or `timeoutMs` passes (`closed: false`): for requests no HTTP client would send,
 * and for finding out whether the server keeps a socket that trickles.
 */
function raw({ target, bytes, localAddress, timeoutMs = 5000 }) {
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks = [];
    let error = null;
    const socket = net.connect({ host: target.host, port: target.port, localAddress }, () =>
      socket.write(Buffer.from(bytes, 'latin1')),
    );
    const finish = (closed) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({
        data: Buffer.concat(chunks).toString('latin1'),
        closed,
        error,
        elapsedMs: Math.round(performance.now() - started),
      });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (caught) => {
      error = errorOf(caught);
    });
    socket.on('close', () => finish(true));
  });
}

const holds = new Map();

/** Opens `count` idle connections and keeps them until released, counting those the server closes. */
function hold(id, { target, count, expectClosed = 0, timeoutMs = 5000, localAddress }) {
  const sockets = [];
  holds.set(id, sockets);
  let connected = 0;
  let closed = 0;
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve({ connected, closed });
    };
    const timer = setTimeout(done, timeoutMs);
    const check = () => {
      if (closed >= expectClosed && connected + closed >= count) done();
    };
    for (let i = 0; i < count; i++) {
      const socket = net.connect({ host: target.host, port: target.port, localAddress });
      let wasConnected = false;
      socket.on('connect', () => {
        wasConnected = true;
        connected++;
        check();
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        if (wasConnected) connected--;
        closed++;
        check();
      });
      sockets.push(socket);
    }
  });
}

function release({ hold: id }) {
  for (const socket of holds.get(id) ?? []) socket.destroy();
  holds.delete(id);
}

const sessions = new Map();

function wsOpen(id, { target, path = '/', headers = {}, timeoutMs = 5000 }) {
  const host = withoutZone(target.host);
  const url = `ws://${net.isIPv6(host) ? `[${host}]` : host}:${target.port}${path}`;
  const started = performance.now();
  const at = () => Math.round(performance.now() - started);
  const emit = (event, fields = {}) => write({ id, type: 'ws', event, at: at(), ...fields });
  const socket = new WebSocket(url, {
    headers,
    handshakeTimeout: timeoutMs,
    perMessageDeflate: false,
    // ws builds the connection from the URL, which cannot carry a zone id: connect by hand.
    // `path` is cleared because net.connect would read the HTTP path as a Unix socket path.
    createConnection: (options) => net.connect({ ...options, path: undefined, host: target.host }),
  });
  sessions.set(id, socket);
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    sessions.delete(id);
  };
  socket.on('open', () => emit('open'));
  socket.on('unexpected-response', (request, response) => {
    const chunks = [];
    response.on('data', (chunk) => chunks.push(chunk));
    response.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      emit('refused', {
        status: response.statusCode,
        headers: response.headers,
        body,
        json: parseJson(body),
      });
      end();
      request.destroy();
    });
  });
  socket.on('message', (data, isBinary) => {
    const text = isBinary ? Buffer.from(data).toString('base64') : data.toString('utf8');
    const parsed = isBinary ? undefined : parseJson(text);
    emit('message', { data: parsed === undefined ? text : parsed, binary: isBinary });
  });
  // After a refusal the aborted handshake reports errors of its own: the refusal is the outcome.
  socket.on('error', (error) => {
    if (!ended) emit('error', { error: errorOf(error) });
  });
  socket.on('close', (code, reason) => {
    if (ended) return;
    emit('close', { code, reason: reason.toString('utf8') });
    end();
  });
}

function wsSend({ id, data }) {
  const socket = sessions.get(id);
  if (socket?.readyState === WebSocket.OPEN) socket.send(data);
  else write({ id, type: 'ws', event: 'dropped', at: 0 });
}

function wsClose({ id, code = 1000, reason = '' }) {
  const socket = sessions.get(id);
  if (socket === undefined) return;
  if (socket.readyState === WebSocket.OPEN) socket.close(code, reason);
  else socket.terminate();
}

const running = new Set();
const track = (promise) => {
  running.add(promise);
  promise.finally(() => running.delete(promise));
};

const input = createInterface({ input: process.stdin });
input.on('line', (line) => {
  if (line.trim() === '') return;
  const message = JSON.parse(line);
  const reply = (work) =>
    track(
      work.then(
        (result) => write({ id: message.id, type: 'result', result }),
        (error) => write({ id: message.id, type: 'failure', error: errorOf(error) }),
      ),
    );
  switch (message.op) {
    case 'http':
      return reply(httpRequest(message));
    case 'burst':
      return reply(burst(message));
    case 'raw':
      return reply(raw(message));
    case 'hold':
      return reply(hold(message.id, message));
    case 'release':
      return release(message);
    case 'ws-open':
      return wsOpen(message.id, message);
    case 'ws-send':
      return wsSend(message);
    case 'ws-close':
      return wsClose(message);
    default:
      write({
        id: message.id,
        type: 'failure',
        error: { code: 'EPROTO', message: `unknown op ${message.op}` },
      });
  }
});
input.on('close', async () => {
  await Promise.allSettled([...running]);
  for (const socket of sessions.values()) socket.terminate();
  for (const id of [...holds.keys()]) release({ hold: id });
  process.exitCode = 0;
});
