import type { Runtime } from './server-process.ts';

/** How much load each part applies: every part is bounded in count and in time. */
export interface BenchConfig {
  quick: boolean;
  /** Each load runs at every count of concurrent clients (connections, one request in flight each). */
  http: { clients: number[]; warmupSeconds: number; seconds: number };
  /** Closed loop, one command at a time, with a pause between commands. */
  latency: Array<{ clients: number; commands: number; pauseMs: number; processes: number }>;
  wsTriggers: { windows: number[]; warmupSeconds: number; seconds: number };
  /** The long run stops at maxSeconds even if `commands` are not all done (the table says how many were). */
  memory: {
    clients: number;
    warmupCommands: number;
    commands: number;
    connections: number;
    maxSeconds: number;
  };
  startup: { starts: number };
  /** Commands until the HUD pages' DOM shows them (Chromium), one at a time. */
  overlay: { commands: number; pauseMs: number };
  /**
   * A live match (issue 23): seconds of nothing happening (page and surfaces connected), of warm-up
   * and of the measured show; `idleAfter`: the idle stretch follows the show (once "receiving" has
   * ended) instead of preceding it; `longMinutes`: a long show for RSS growth (0: none).
   */
  show: {
    idleSeconds: number;
    idleAfter: boolean;
    warmupSeconds: number;
    seconds: number;
    longMinutes: number;
  };
}

export const FULL: BenchConfig = {
  quick: false,
  http: { clients: [1, 10, 100], warmupSeconds: 1, seconds: 5 },
  latency: [
    { clients: 1, commands: 5_000, pauseMs: 1, processes: 0 },
    { clients: 100, commands: 2_000, pauseMs: 5, processes: 1 },
    { clients: 1_000, commands: 1_000, pauseMs: 20, processes: 2 },
  ],
  wsTriggers: { windows: [1, 8, 64], warmupSeconds: 1, seconds: 5 },
  memory: { clients: 1_000, warmupCommands: 20_000, commands: 1_000_000, connections: 50, maxSeconds: 360 },
  startup: { starts: 9 },
  overlay: { commands: 500, pauseMs: 20 },
  show: { idleSeconds: 30, idleAfter: true, warmupSeconds: 10, seconds: 40, longMinutes: 0 },
};

export const QUICK: BenchConfig = {
  quick: true,
  http: { clients: [1, 10, 100], warmupSeconds: 0.3, seconds: 1.5 },
  latency: [
    { clients: 1, commands: 300, pauseMs: 1, processes: 0 },
    { clients: 100, commands: 200, pauseMs: 5, processes: 1 },
    { clients: 1_000, commands: 100, pauseMs: 20, processes: 2 },
  ],
  wsTriggers: { windows: [1, 8, 64], warmupSeconds: 0.3, seconds: 1 },
  memory: { clients: 1_000, warmupCommands: 5_000, commands: 20_000, connections: 50, maxSeconds: 60 },
  startup: { starts: 3 },
  overlay: { commands: 40, pauseMs: 20 },
  show: { idleSeconds: 2, idleAfter: false, warmupSeconds: 1.5, seconds: 4, longMinutes: 0 },
};

/** What every part gets. */
export interface PartContext {
  config: BenchConfig;
  runtime: Runtime;
  /** Node options for every hud server (--cpu-prof with --profile). */
  nodeOptions(part: string): string[];
  log(line: string): void;
}
