/**
 * The module's line to the server: HTTP for commands, one WebSocket for `hello` and events.
 *
 * The connection loop: ask `GET /` who answers (so a wrong service or a wrong token is told apart
 * from an unreachable address), open the WebSocket, wait for `hello`; when the socket closes, wait
 * (0.5 s doubling to 10 s, back to 0.5 s after a good hello) and start again. The token travels as
 * the spec says: `Authorization: Bearer` over HTTP, `?token=` on the WebSocket address, beside
 * `?subscribe=game` (the live game data, for the observed player). Commands are never retried: an
 * answer, good or bad, goes back to the button that sent it.
 */
import { Agent, request } from 'node:http';
import WebSocket from 'ws';
import type { EventMessage, GameMessage, Snapshot } from './hud-state.ts';

export const SERVICE = 'hud-automation';
export const PROTOCOL = 1;
const PROBE_TIMEOUT_MS = 5_000;
const HELLO_TIMEOUT_MS = 10_000;
// import_match_veto may take 20 s; the server's own limit is 30 s for a request.
const COMMAND_TIMEOUT_MS = 35_000;
// The server pings every 30 s; this long without a ping or a message means the line is dead (a
// cable pulled, a laptop asleep) even if TCP has not noticed yet.
const SILENCE_MS = 75_000;
const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 10_000;

export interface Endpoint {
  host: string;
  port: number;
  token: string;
}

/** Where the connection stands, as Companion's connection list shows it. */
export type LinkState =
  | { kind: 'connecting'; message: string }
  | { kind: 'ok'; message: string }
  | { kind: 'bad_token'; message: string }
  | { kind: 'unreachable'; message: string }
  | { kind: 'wrong_service'; message: string }
  | { kind: 'refused'; message: string }
  /** The module's config names no server (set by the instance; the client never starts). */
  | { kind: 'bad_config'; message: string };

/** The answer to a command: the server's envelope with the HTTP status (0: no answer). */
export interface CommandAnswer {
  status: number;
  ok: boolean;
  error?: string;
  message?: string;
  state?: Record<string, unknown>;
  result?: unknown;
}

export interface HudClientEvents {
  link(state: LinkState): void;
  /** A whole snapshot: from hello (after every connect) or from a snapshot request. */
  snapshot(snapshot: Snapshot): void;
  event(message: EventMessage): void;
  game(message: GameMessage): void;
}

/** `GET /` of hud-automation, or of whatever answers there (then these fields are missing). */
interface ServiceAnswer {
  ok?: boolean;
  service?: string;
  version?: string;
  protocol?: number;
  message?: string;
}

interface Probe {
  status: number;
  /** The JSON answer, or undefined when the answer was not a JSON object. */
  body: ServiceAnswer | undefined;
}

type ServerMessage =
  | { type: 'hello' | 'snapshot'; snapshot: Snapshot }
  | EventMessage
  | ({ type: 'game' } & GameMessage)
  | { type: 'result' | 'pong' | 'error' };

// One connection per command: the server closes idle keep-alive sockets after 5 s, and a command
// sent on a socket the server is closing would fail for no reason the operator can act on.
const agent = new Agent({ keepAlive: false });

function hostPart(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  return error.code ? `${error.code}` : error.message;
}

export class HudClient {
  readonly #endpoint: Endpoint;
  readonly #on: HudClientEvents;
  #socket: WebSocket | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #retryMs = FIRST_RETRY_MS;
  #stopped = false;
  #snapshotRequests = 0;
  #link: LinkState = { kind: 'connecting', message: 'connecting' };

  constructor(endpoint: Endpoint, on: HudClientEvents) {
    this.#endpoint = endpoint;
    this.#on = on;
  }

  get baseUrl(): string {
    return `http://${hostPart(this.#endpoint.host)}:${this.#endpoint.port}`;
  }

  get link(): LinkState {
    return this.#link;
  }

  start(): void {
    this.#stopped = false;
    void this.#connect();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#retryTimer);
    this.#socket?.removeAllListeners();
    this.#socket?.on('error', () => {});
    this.#socket?.terminate();
    this.#socket = undefined;
  }

  /** Asks for the whole state again (after a revision gap). */
  requestSnapshot(): void {
    if (this.#socket?.readyState !== WebSocket.OPEN) return;
    this.#socket.send(
      JSON.stringify({ type: 'snapshot', id: `companion-snapshot-${++this.#snapshotRequests}` }),
    );
  }

  /** `POST /api/actions/<action>`; resolves with the answer, also for refusals and no answer. */
  command(action: string, payload: Record<string, unknown> | undefined): Promise<CommandAnswer> {
    const body = JSON.stringify(payload ?? {});
    return new Promise((done) => {
      const req = request(
        `${this.baseUrl}/api/actions/${encodeURIComponent(action)}`,
        {
          method: 'POST',
          agent,
          timeout: COMMAND_TIMEOUT_MS,
          headers: { ...this.#authHeaders(), 'content-type': 'application/json' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            try {
              done({ status, ...JSON.parse(Buffer.concat(chunks).toString('utf8')) });
            } catch {
              done({ status, ok: false, error: 'bad_answer', message: `the answer (${status}) is not JSON` });
            }
          });
        },
      );
      req.on('timeout', () => req.destroy(Object.assign(new Error('no answer'), { code: 'ETIMEDOUT' })));
      req.on('error', (error: NodeJS.ErrnoException) =>
        done({
          status: 0,
          ok: false,
          error: 'unreachable',
          message: `${this.baseUrl} did not answer (${describeNetworkError(error)})`,
        }),
      );
      req.end(body);
    });
  }

  #authHeaders(): Record<string, string> {
    return this.#endpoint.token ? { authorization: `Bearer ${this.#endpoint.token}` } : {};
  }

  #setLink(state: LinkState): void {
    if (state.kind === this.#link.kind && state.message === this.#link.message) return;
    this.#link = state;
    this.#on.link(state);
  }

  #probe(): Promise<Probe> {
    return new Promise((done, fail) => {
      const req = request(
        `${this.baseUrl}/`,
        { agent, timeout: PROBE_TIMEOUT_MS, headers: this.#authHeaders() },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            let body: ServiceAnswer | undefined;
            try {
              const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
              if (typeof parsed === 'object' && parsed !== null) body = parsed as ServiceAnswer;
            } catch {
              // Not JSON: not hud-automation.
            }
            done({ status: res.statusCode ?? 0, body });
          });
        },
      );
      req.on('timeout', () => req.destroy(Object.assign(new Error('no answer'), { code: 'ETIMEDOUT' })));
      req.on('error', fail);
      req.end();
    });
  }

  /** What the probe says is wrong, or undefined when hud-automation answered and let us in. */
  #judge(probe: Probe): LinkState | undefined {
    const { status, body } = probe;
    const where = `${hostPart(this.#endpoint.host)}:${this.#endpoint.port}`;
    const ours = body?.ok !== undefined;
    if (status === 401 && ours) {
      return {
        kind: 'bad_token',
        message: this.#endpoint.token
          ? `bad token: ${where} refused the access token (copy it again from hud-automation token)`
          : `bad token: ${where} needs the access token (local network mode)`,
      };
    }
    if (status === 403 && ours) return { kind: 'refused', message: `refused by ${where}: ${body?.message}` };
    if (status === 200 && body?.service === SERVICE) {
      if (body.protocol !== PROTOCOL) {
        return {
          kind: 'wrong_service',
          message: `${where} speaks protocol ${body.protocol}; this module speaks ${PROTOCOL}: update the module`,
        };
      }
      return undefined;
    }
    return {
      kind: 'wrong_service',
      message: `wrong service at ${where}: it is not hud-automation (HTTP ${status})`,
    };
  }

  async #connect(): Promise<void> {
    if (this.#stopped) return;
    // A retry keeps showing what went wrong; only a first attempt, or one after a good
    // connection, says "connecting".
    if (this.#link.kind === 'connecting' || this.#link.kind === 'ok') {
      this.#setLink({ kind: 'connecting', message: `connecting to ${this.baseUrl}` });
    }
    let probe: Probe;
    try {
      probe = await this.#probe();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      // HPE_…: Node's HTTP parser could not read the answer: something that is not HTTP listens.
      this.#retry(
        code.startsWith('HPE_')
          ? {
              kind: 'wrong_service',
              message: `wrong service at ${hostPart(this.#endpoint.host)}:${this.#endpoint.port}: it does not answer HTTP`,
            }
          : {
              kind: 'unreachable',
              message: `unreachable: ${this.baseUrl} (${describeNetworkError(error as NodeJS.ErrnoException)})`,
            },
      );
      return;
    }
    if (this.#stopped) return;
    const refusal = this.#judge(probe);
    if (refusal) {
      this.#retry(refusal);
      return;
    }
    this.#openSocket(probe.body?.version ?? '');
  }

  #openSocket(version: string): void {
    // The live game data comes only to a client that asks for it: the observed player's variables
    // are drawn from it (docs/websocket.md, "Subscriptions").
    const query = new URLSearchParams({ subscribe: 'game' });
    if (this.#endpoint.token) query.set('token', this.#endpoint.token);
    const socket = new WebSocket(`ws://${hostPart(this.#endpoint.host)}:${this.#endpoint.port}/?${query}`, {
      handshakeTimeout: PROBE_TIMEOUT_MS,
    });
    this.#socket = socket;
    let greeted = false;
    const helloTimer = setTimeout(() => socket.terminate(), HELLO_TIMEOUT_MS);
    let silenceTimer: NodeJS.Timeout | undefined;
    const heard = () => {
      clearTimeout(silenceTimer);
      silenceTimer = setTimeout(() => socket.terminate(), SILENCE_MS);
    };
    socket.on('ping', heard);
    socket.on('message', (raw) => {
      heard();
      let message: ServerMessage;
      try {
        message = JSON.parse(raw.toString()) as ServerMessage;
      } catch {
        return;
      }
      if (message.type === 'hello') {
        greeted = true;
        clearTimeout(helloTimer);
        this.#retryMs = FIRST_RETRY_MS;
        this.#on.snapshot(message.snapshot);
        this.#setLink({ kind: 'ok', message: `connected to hud-automation ${version}` });
      } else if (message.type === 'event') this.#on.event(message);
      else if (message.type === 'snapshot') this.#on.snapshot(message.snapshot);
      else if (message.type === 'game') this.#on.game(message);
    });
    socket.on('error', () => {
      // 'close' follows and says what happens next (an upgrade refused by status closes with 1006;
      // the next probe says why).
    });
    socket.on('close', (code) => {
      clearTimeout(helloTimer);
      clearTimeout(silenceTimer);
      if (this.#socket !== socket || this.#stopped) return;
      this.#socket = undefined;
      if (code === 4401)
        this.#retry({ kind: 'bad_token', message: `bad token: the server closed the connection (4401)` });
      else if (code === 4403) {
        this.#retry({
          kind: 'refused',
          message: 'refused: local network mode was switched off on the server (4403)',
        });
      } else {
        this.#retry({
          kind: 'unreachable',
          message: greeted
            ? `disconnected (${code}): reconnecting`
            : `unreachable: the WebSocket closed (${code})`,
        });
      }
    });
  }

  #retry(state: LinkState): void {
    if (this.#stopped) return;
    this.#setLink(state);
    const wait = this.#retryMs;
    this.#retryMs = Math.min(this.#retryMs * 2, LAST_RETRY_MS);
    this.#retryTimer = setTimeout(() => void this.#connect(), wait);
  }
}
