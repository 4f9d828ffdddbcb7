/**
 * What the game console prints back. The console echoes every line it prints to every client, and
 * the observer needs none of it: it is read only so the game never backs up on this client, and read
 * with a budget so a console that floods (a hostile one, or a game printing a storm) costs this
 * process a bounded amount of work. Over the budget the socket is paused until the next interval and
 * TCP's flow control keeps the rest in the sender's buffers. Nothing is split into lines, parsed or kept.
 */
import type { Socket } from 'node:net';

export interface ReadBudget {
  /** Bytes read per interval; one read can pass it by at most one chunk (64 KiB). */
  bytes: number;
  intervalMs: number;
}

/**
 * 256 KiB a second, in quarters so reading stays smooth: far above what a game prints (a few lines a
 * second, a `status` of some kilobytes), and reading and dropping it costs well under 1 % of a core.
 */
export const NETCON_READ_BUDGET: ReadBudget = { bytes: 64 * 1024, intervalMs: 250 };

/** Reads and drops the socket's incoming bytes within `budget`, until the socket closes. */
export function discardOutput(socket: Socket, budget: ReadBudget): void {
  let windowStart = performance.now();
  let used = 0;
  let resumeTimer: NodeJS.Timeout | null = null;

  const resume = () => {
    resumeTimer = null;
    windowStart = performance.now();
    used = 0;
    if (!socket.destroyed) socket.resume();
  };
  socket.on('data', (chunk: Buffer) => {
    const now = performance.now();
    if (now - windowStart >= budget.intervalMs) {
      windowStart = now;
      used = 0;
    }
    used += chunk.length;
    if (used >= budget.bytes && resumeTimer === null) {
      // Paused, the stream stops reading from the kernel once its small buffer is full.
      socket.pause();
      resumeTimer = setTimeout(resume, Math.max(0, windowStart + budget.intervalMs - now));
    }
  });
  socket.once('close', () => {
    if (resumeTimer) clearTimeout(resumeTimer);
    resumeTimer = null;
  });
}
