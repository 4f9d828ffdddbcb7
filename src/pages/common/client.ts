/**
 * The one WebSocket client of the pages: connect, hello, events into the store's signals, resync on
 * a revision gap, reconnect with backoff while keeping the last state on screen, and commands as
 * `trigger` messages answered by id. The operator app, the HUD overlay and the scene pages share it.
 */
import type {
  AnyCommandName,
  ClientMessage,
  CommandName,
  CommandPayload,
  CommandResultOf,
  EventMessage,
  PayloadArgs,
  ServerMessage,
} from '../../protocol/index.ts';
import { NOTIFICATION_STREAMS } from '../../protocol/index.ts';
import { applyGameMessage } from './game-store.ts';
import { applyEvent, applySnapshot, connection } from './store.ts';

/** The answer to a trigger, as the server sends it. */
export type CommandResult = Extract<ServerMessage, { type: 'result' }>;
export type CommandFailure = Extract<CommandResult, { ok: false }>;
/** The answer to a trigger of `N`: its result typed by the command's contract (src/protocol/commands.ts). */
export type CommandAnswer<N extends AnyCommandName> =
  | (Omit<Extract<CommandResult, { ok: true }>, 'result'> & { result: CommandResultOf<N> })
  | CommandFailure;

export interface ClientOptions {
  /** Who connects: `operator` for the operator app, `overlay` and `scene` for the HUD pages. */
  role: string;
  /** Called after each hello (first connect and every reconnect), e.g. to load lists over HTTP. */
  onHello?: () => void;
  /** Called when a connection closes, with its close code. */
  onClose?: (code: number) => void;
  /** Called with each event once the store has it (notifications too), e.g. overlay.reload. */
  onEvent?: (message: EventMessage) => void;
}

export const BACKOFF_MS = { first: 500, max: 5_000 } as const;

/**
 * Events that tell something without changing the state: they carry the current revision and do
 * not raise it (docs/websocket.md; the streams' table says which). Everything else is a change and
 * raises it by one.
 */
const NOTIFICATIONS: ReadonlySet<EventMessage['event']> = NOTIFICATION_STREAMS;

/** A failure the client makes up itself when the server cannot answer (same envelope as the server's). */
const localFailure = (action: string, message: string): CommandFailure => ({
  type: 'result',
  id: null,
  action,
  ok: false,
  status: 503,
  error: 'unavailable',
  message,
});

/**
 * The WebSocket address of this page's server; the page's credential travels along (LAN pages): the
 * view key (`?view=`, read-only) or the access token (`?token=`).
 */
export function socketUrl(role: string, location: Location = window.location): string {
  const url = new URL('/ws', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('role', role);
  return withPageCredential(url, location).toString();
}

/** `url` with this page's credential from its own address (`?view=` or `?token=`), for what it loads. */
export function withPageCredential(url: URL, location: Location = window.location): URL {
  const query = new URLSearchParams(location.search);
  for (const name of ['view', 'token']) {
    const value = query.get(name);
    if (value) url.searchParams.set(name, value);
  }
  return url;
}

export class Client {
  private socket: WebSocket | null = null;
  private nextId = 1;
  private readonly pending = new Map<string, { action: string; resolve: (result: CommandResult) => void }>();
  private revision = 0;
  private resyncing = false;
  private attempts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private stopped = true;

  constructor(private readonly options: ClientOptions) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.open();
  }

  /** Closes the connection for good (sign-out); the state on screen stays until the page changes it. */
  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.socket?.close(1000);
    this.socket = null;
    this.failPending('The page is no longer connected to the server');
    this.setConnection({ status: 'closed', retryInMs: null });
  }

  /**
   * Runs a command; resolves with the server's result (never rejects: failures are results too).
   * The name, the payload and the result follow the command's contract.
   */
  trigger<N extends CommandName>(action: N, ...[payload]: PayloadArgs<N>): Promise<CommandAnswer<N>> {
    return this.request(
      action,
      'Not connected to the server: the command was not sent. Try again once connected.',
      (id) => ({ type: 'trigger', id, action, ...(payload === undefined ? {} : { payload }) }),
    ) as Promise<CommandAnswer<N>>;
  }

  /**
   * The HUD overlay tells the server what it shows (the payload of overlay_report); resolves with
   * the server's result, as trigger does.
   */
  report(report: CommandPayload<'overlay_report'>): Promise<CommandAnswer<'overlay_report'>> {
    return this.request('overlay_report', 'Not connected to the server', (id) => ({
      type: 'report',
      id,
      report,
    })) as Promise<CommandAnswer<'overlay_report'>>;
  }

  /** Sends a message answered by id; resolves with the answer, or at once with `offline` when not connected. */
  private request(
    action: string,
    offline: string,
    message: (id: string) => ClientMessage,
  ): Promise<CommandResult> {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN)
      return Promise.resolve(localFailure(action, offline));
    const id = `c${this.nextId++}`;
    return new Promise((resolve) => {
      this.pending.set(id, { action, resolve });
      this.send(message(id));
    });
  }

  private send(message: ClientMessage): void {
    this.socket?.send(JSON.stringify(message));
  }

  private open(): void {
    this.setConnection({
      status: this.attempts === 0 && this.revision === 0 ? 'connecting' : 'reconnecting',
    });
    const socket = new WebSocket(socketUrl(this.options.role));
    this.socket = socket;
    socket.onmessage = (message) => {
      if (this.socket !== socket || typeof message.data !== 'string') return;
      this.receive(JSON.parse(message.data) as ServerMessage);
    };
    socket.onclose = (close) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.failPending('The connection to the server was lost before the answer arrived');
      this.setConnection({ lastCloseCode: close.code });
      this.options.onClose?.(close.code);
      if (!this.stopped) this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    const delay = Math.min(BACKOFF_MS.max, BACKOFF_MS.first * 2 ** this.attempts);
    this.attempts += 1;
    this.setConnection({ status: 'reconnecting', attempts: this.attempts, retryInMs: delay });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.stopped) this.open();
    }, delay);
  }

  private receive(message: ServerMessage): void {
    switch (message.type) {
      case 'hello':
        this.attempts = 0;
        this.resyncing = false;
        this.revision = message.snapshot.revision;
        applySnapshot(message.snapshot);
        this.setConnection({ status: 'open', attempts: 0, retryInMs: null, revision: this.revision });
        this.options.onHello?.();
        return;
      case 'snapshot':
        this.resyncing = false;
        this.revision = message.snapshot.revision;
        applySnapshot(message.snapshot);
        this.setConnection({ revision: this.revision });
        return;
      case 'event':
        this.receiveEvent(message);
        return;
      case 'game':
        applyGameMessage(message);
        return;
      case 'result': {
        const waiting = typeof message.id === 'string' ? this.pending.get(message.id) : undefined;
        if (waiting && typeof message.id === 'string') {
          this.pending.delete(message.id);
          waiting.resolve(message);
        }
        return;
      }
      default:
        return;
    }
  }

  private receiveEvent(message: EventMessage): void {
    // Events sent before the snapshot answer are part of it: drop them until it arrives.
    if (this.resyncing) return;
    if (NOTIFICATIONS.has(message.event)) {
      // A notification carries the current revision without raising it: a newer one means a change
      // was missed. The notification itself is still worth showing.
      applyEvent(message.event, message.data as never);
      this.options.onEvent?.(message);
      if (message.revision > this.revision) this.resync();
      return;
    }
    // A change carries the next revision (every event of one command carries the same one).
    if (message.revision > this.revision + 1) {
      this.resync();
      return;
    }
    this.revision = Math.max(this.revision, message.revision);
    applyEvent(message.event, message.data as never);
    this.options.onEvent?.(message);
    if (connection.value.revision !== this.revision) this.setConnection({ revision: this.revision });
  }

  private resync(): void {
    this.resyncing = true;
    this.send({ type: 'snapshot', id: `s${this.nextId++}` });
  }

  private failPending(message: string): void {
    for (const [id, { action, resolve }] of this.pending) {
      this.pending.delete(id);
      resolve(localFailure(action, message));
    }
  }

  private setConnection(changes: Partial<typeof connection.value>): void {
    connection.value = { ...connection.value, ...changes };
  }
}
