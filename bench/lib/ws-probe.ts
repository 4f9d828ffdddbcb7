import { WebSocket } from 'ws';
import type { ServerMessage } from '../../src/protocol/websocket.ts';

export type TriggerResult = Extract<ServerMessage, { type: 'result' }>;

import { RevisionCheck } from './revision-check.ts';

/**
 * A WebSocket client inside the measuring process: it stamps every message with process.hrtime
 * the moment it is parsed, so a send time and an arrival time come from the same clock.
 */
export class WsProbe {
  readonly check = new RevisionCheck();
  /** Arrival time (ns) of the first event of each revision. */
  readonly arrivals = new Map<number, bigint>();
  #revisionWaiters = new Map<number, () => void>();
  #resultWaiters = new Map<number, (at: bigint, message: TriggerResult) => void>();

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const at = process.hrtime.bigint();
      const message = JSON.parse(data.toString()) as ServerMessage;
      const revision = this.check.see(message);
      if (revision !== null && !this.arrivals.has(revision)) {
        this.arrivals.set(revision, at);
        this.#revisionWaiters.get(revision)?.();
        this.#revisionWaiters.delete(revision);
      }
      if (message.type === 'result' && typeof message.id === 'number') {
        this.#resultWaiters.get(message.id)?.(at, message);
        this.#resultWaiters.delete(message.id);
      }
    });
  }

  /** Connects and waits for the hello (the loopback client is let in without a token). */
  static connect(url: string): Promise<WsProbe> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { perMessageDeflate: false });
      const probe = new WsProbe(socket);
      socket.once('error', reject);
      socket.on('message', function onHello() {
        if (probe.check.last < 0) return;
        socket.off('message', onHello);
        resolve(probe);
      });
    });
  }

  /** The revision of the hello: the state the probe started from. */
  get revision(): number {
    return this.check.last;
  }

  /** Resolves with the arrival time of `revision` (at once if it is already here). */
  arrival(revision: number, timeoutMs: number): Promise<bigint> {
    const known = this.arrivals.get(revision);
    if (known !== undefined) return Promise.resolve(known);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`revision ${revision} did not arrive within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.#revisionWaiters.set(revision, () => {
        clearTimeout(timer);
        resolve(this.arrivals.get(revision) as bigint);
      });
    });
  }

  /** Sends a trigger; resolves with the time its result arrived and the result. */
  trigger(id: number, action: string, payload?: unknown): Promise<{ at: bigint; message: TriggerResult }> {
    return new Promise((resolve) => {
      this.#resultWaiters.set(id, (at, message) => resolve({ at, message }));
      this.socket.send(
        JSON.stringify({ type: 'trigger', id, action, ...(payload === undefined ? {} : { payload }) }),
      );
    });
  }

  close(): void {
    this.socket.terminate();
  }
}
