import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { ROOT, track } from './server-process.ts';

export type CrowdRequest =
  | { type: 'connect'; url: string; count: number; concurrency: number }
  | { type: 'expect'; revision: number; timeoutMs: number }
  | { type: 'close' };

export type CrowdReport =
  | { type: 'connected'; clients: number }
  | { type: 'report'; clients: number; events: number; lost: number; outOfOrder: number; closedEarly: number }
  | { type: 'failed'; message: string };

export type DeliveryReport = Omit<Extract<CrowdReport, { type: 'report' }>, 'type'>;

/** WebSocket subscribers spread over one or two child processes (bench/ws-clients.ts). */
export class WsCrowd {
  private constructor(private readonly children: ChildProcess[]) {}

  /** Connects `count` clients (50 at a time per process), each waiting for its hello. */
  static async connect(url: string, count: number, processes: number): Promise<WsCrowd> {
    const sizes = Array.from(
      { length: processes },
      (_, i) => Math.floor(count / processes) + (i < count % processes ? 1 : 0),
    ).filter((size) => size > 0);
    const children = sizes.map(() =>
      track(
        fork(join(ROOT, 'bench/ws-clients.ts'), [], {
          execArgv: ['--import', 'tsx'],
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        }),
      ),
    );
    const crowd = new WsCrowd(children);
    await Promise.all(
      children.map((child, i) =>
        crowd.#ask(
          child,
          { type: 'connect', url, count: sizes[i] ?? 0, concurrency: 50 },
          'connected',
          120_000,
        ),
      ),
    );
    return crowd;
  }

  /** Waits (up to timeoutMs) until every client has seen `revision`, then sums what each one missed. */
  async delivery(revision: number, timeoutMs: number): Promise<DeliveryReport> {
    const reports = await Promise.all(
      this.children.map((child) =>
        this.#ask(child, { type: 'expect', revision, timeoutMs }, 'report', timeoutMs + 10_000),
      ),
    );
    const total: DeliveryReport = { clients: 0, events: 0, lost: 0, outOfOrder: 0, closedEarly: 0 };
    for (const report of reports) {
      if (report.type !== 'report') continue;
      total.clients += report.clients;
      total.events += report.events;
      total.lost += report.lost;
      total.outOfOrder += report.outOfOrder;
      total.closedEarly += report.closedEarly;
    }
    return total;
  }

  async close(): Promise<void> {
    await Promise.all(
      this.children.map(async (child) => {
        if (child.exitCode !== null) return;
        const exited = once(child, 'exit');
        child.send({ type: 'close' } satisfies CrowdRequest);
        await exited;
      }),
    );
  }

  #ask(
    child: ChildProcess,
    request: CrowdRequest,
    answer: CrowdReport['type'],
    timeoutMs: number,
  ): Promise<CrowdReport> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => finish(new Error(`ws-clients: no ${answer} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const onMessage = (message: CrowdReport) => {
        if (message.type === 'failed') finish(new Error(`ws-clients: ${message.message}`));
        else if (message.type === answer) finish(null, message);
      };
      const onExit = (code: number | null) =>
        finish(new Error(`ws-clients exited (${code}) before ${answer}`));
      const finish = (error: Error | null, message?: CrowdReport) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        if (error) reject(error);
        else resolve(message as CrowdReport);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send(request);
    });
  }
}
