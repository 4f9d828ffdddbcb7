/**
 * The module's line to the server: HTTP for commands, one WebSocket for `hello` and events.
 *
 * The connection loop: ask `GET /` who answers (so a wrong service or a wrong token is told apart
 * from an unreachable address), open the WebSocket, wait for `hello`; when the socket closes, wait
 * (0.5 s doubling to 10 s, back to 0.5 s after a good hello) and start again. The token travels as
 * the spec says: `Authorization: Bearer` over HTTP, `?token=` on the WebSocket address, beside
 * `?subscribe=game` (the live game data, for the observed player). Commands are never retried: an
 * answer, good or bad, goes back to the button that sent it.
 *
 * Whatever answers at the configured address is not trusted: every answer and message is read with
 * a byte bound and checked against the schemas of server-messages.ts. A message that does not match
 * ends the connection with a status that says where it differs, and the loop tries again later.
 */
import { Agent } from 'node:http';
import WebSocket from 'ws';
import { ANSWER_TOO_LARGE, boundedRequest, mebibytes, type RequestError } from './bounded-request.ts';
import {
  type CommandEnvelope,
  type EventMessage,
  type GameMessage,
  PROTOCOL,
  readCommandEnvelope,
  readServerMessage,
  readServiceAnswer,
  type ServiceAnswer,
  type Snapshot,
} from './server-messages.ts';

export const SERVICE = 'hud-automation';
/**
 * The most the module reads of one HTTP answer or one WebSocket message. The server's largest
 * (a hello with a whole show in it) is tens of KiB; 8 MiB leaves it room to grow and keeps an
 * answer that never ends from taking the module's memory.
 */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;
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
export type CommandAnswer = CommandEnvelope & { status: number };

export interface HudClientEvents {
  link(state: LinkState): void;
  /** A whole snapshot: from hello (after every connect) or from a snapshot request. */
  snapshot(snapshot: Snapshot): void;
  event(message: EventMessage): void;
  game(message: GameMessage): void;
}

interface Probe {
  status: number;
  /** The JSON answer, or undefined when the answer was not hud-automation's shape. */
  body: ServiceAnswer | undefined;
}

// One connection per command: the server closes idle keep-alive sockets after 5 s, and a command
// sent on a socket the server is closing would fail for no reason the operator can act on.
const agent = new Agent({ keepAlive: false });

function hostPart(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  return error.code ? `${error.code}` : error.message;
}

// Text from the server shown in a status or a log line: one line of reasonable length.
const SHOWN_CHARS = 300;
function shown(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > SHOWN_CHARS ? `${line.slice(0, SHOWN_CHARS)}…` : line;
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
  async command(action: string, payload: Record<string, unknown> | undefined): Promise<CommandAnswer> {
    let answer: { status: number; text: string };
    try {
      answer = await boundedRequest(`${this.baseUrl}/api/actions/${encodeURIComponent(action)}`, {
        method: 'POST',
        agent,
        headers: { ...this.#authHeaders(), 'content-type': 'application/json' },
        body: JSON.stringify(payload ?? {}),
        maxBytes: MAX_ANSWER_BYTES,
        deadlineMs: COMMAND_TIMEOUT_MS,
      });
    } catch (error) {
      const { code, status } = error as RequestError;
      if (code === ANSWER_TOO_LARGE) {
        return {
          status: status ?? 0,
          ok: false,
          error: 'bad_answer',
          message: `the answer is over ${mebibytes(MAX_ANSWER_BYTES)}: the request was aborted`,
        };
      }
      return {
        status: 0,
        ok: false,
        error: 'unreachable',
        message: `${this.baseUrl} did not answer (${describeNetworkError(error as NodeJS.ErrnoException)})`,
      };
    }
    const envelope = readCommandEnvelope(answer.text);
    if ('problem' in envelope) {
      return {
        status: answer.status,
        ok: false,
        error: 'bad_answer',
        message: `the answer (${answer.status}) ${envelope.problem}`,
      };
    }
    return {
      ...envelope,
      status: answer.status,
      ...(envelope.message === undefined ? {} : { message: shown(envelope.message) }),
      ...(envelope.error === undefined ? {} : { error: shown(envelope.error) }),
    };
  }

  #authHeaders(): Record<string, string> {
    return this.#endpoint.token ? { authorization: `Bearer ${this.#endpoint.token}` } : {};
  }

  #setLink(state: LinkState): void {
    if (state.kind === this.#link.kind && state.message === this.#link.message) return;
    this.#link = state;
    this.#on.link(state);
  }

  async #probe(): Promise<Probe> {
    const { status, text } = await boundedRequest(`${this.baseUrl}/`, {
      agent,
      headers: this.#authHeaders(),
      maxBytes: MAX_ANSWER_BYTES,
      deadlineMs: PROBE_TIMEOUT_MS,
    });
    return { status, body: readServiceAnswer(text) };
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
    if (status === 403 && ours) {
      return {
        kind: 'refused',
        message: `refused by ${where}: ${shown(body?.message ?? '(no reason given)')}`,
      };
    }
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
      if (code.startsWith('HPE_')) this.#retry(this.#wrongService('it does not answer HTTP'));
      else if (code === ANSWER_TOO_LARGE) {
        this.#retry(this.#wrongService(`its answer to GET / is over ${mebibytes(MAX_ANSWER_BYTES)}`));
      } else {
        this.#retry({
          kind: 'unreachable',
          message: `unreachable: ${this.baseUrl} (${describeNetworkError(error as NodeJS.ErrnoException)})`,
        });
      }
      return;
    }
    if (this.#stopped) return;
    const refusal = this.#judge(probe);
    if (refusal) {
      this.#retry(refusal);
      return;
    }
    this.#openSocket(shown(probe.body?.version ?? ''));
  }

  #wrongService(why: string): LinkState {
    return {
      kind: 'wrong_service',
      message: `wrong service at ${hostPart(this.#endpoint.host)}:${this.#endpoint.port}: ${why}`,
    };
  }

  #openSocket(version: string): void {
    // The live game data comes only to a client that asks for it: the observed player's variables
    // are drawn from it (docs/websocket.md, "Subscriptions").
    const query = new URLSearchParams({ subscribe: 'game' });
    if (this.#endpoint.token) query.set('token', this.#endpoint.token);
    const socket = new WebSocket(`ws://${hostPart(this.#endpoint.host)}:${this.#endpoint.port}/?${query}`, {
      handshakeTimeout: PROBE_TIMEOUT_MS,
      maxPayload: MAX_ANSWER_BYTES,
    });
    this.#socket = socket;
    let greeted = false;
    /** Why the module ended this connection: a message it does not take. */
    let refusal: LinkState | undefined;
    const refuse = (why: string) => {
      refusal ??= this.#wrongService(`${why}: refused`);
      socket.terminate();
    };
    const helloTimer = setTimeout(() => socket.terminate(), HELLO_TIMEOUT_MS);
    let silenceTimer: NodeJS.Timeout | undefined;
    const heard = () => {
      clearTimeout(silenceTimer);
      silenceTimer = setTimeout(() => socket.terminate(), SILENCE_MS);
    };
    socket.on('ping', heard);
    socket.on('message', (data, isBinary) => {
      if (refusal) return;
      heard();
      const message = readServerMessage(data, isBinary);
      if ('problem' in message) refuse(message.problem);
      else if (message.type === 'hello') {
        greeted = true;
        clearTimeout(helloTimer);
        this.#on.snapshot(message.snapshot);
        this.#setLink({ kind: 'ok', message: `connected to hud-automation ${version}` });
      } else if (message.type === 'event') this.#on.event(message);
      else if (message.type === 'snapshot') this.#on.snapshot(message.snapshot);
      else if (message.type === 'game') this.#on.game(message);
    });
    socket.on('error', (error: RequestError) => {
      // ws's own refusal of a message over maxPayload; 'close' follows. Any other error is told
      // by 'close' too (an upgrade refused by status closes with 1006; the next probe says why).
      if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
        refuse(`a message over ${mebibytes(MAX_ANSWER_BYTES)}`);
      }
    });
    socket.on('close', (code) => {
      clearTimeout(helloTimer);
      clearTimeout(silenceTimer);
      if (this.#socket !== socket || this.#stopped) return;
      this.#socket = undefined;
      // The pause goes back to its shortest after a good connection only: one the module ended
      // for a bad message does not count, so a server that greets and then breaks the protocol
      // is tried less and less often.
      if (greeted && !refusal) this.#retryMs = FIRST_RETRY_MS;
      if (refusal) this.#retry(refusal);
      else if (code === 4401)
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
