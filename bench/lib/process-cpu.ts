/**
 * CPU time of a set of processes from /proc: a whole process tree (Chromium's browser, renderer,
 * GPU and utility processes), and a process's run time in nanoseconds for shares too small for the
 * 10 ms ticks of /proc/<pid>/stat (an idle server).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpuMsOf } from './server-process.ts';

/** Every process whose parent chain reaches `root` (not `root` itself). */
export function descendantsOf(root: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(name), Number(fields[1]));
    } catch {
      // Gone between the listing and the read.
    }
  }
  const found: number[] = [];
  for (const pid of parents.keys()) {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) {
      if (at === root) {
        found.push(pid);
        break;
      }
    }
  }
  return found;
}

const commandOf = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
  } catch {
    return '';
  }
};

/** The Chromium processes this process started (Debian's /usr/lib/chromium/chromium and its children). */
export const chromiumPids = (): number[] =>
  descendantsOf(process.pid).filter((pid) => /chrom/i.test(commandOf(pid)));

/** CPU time (user + system, ms) of each process, by pid; a process gone is left out. */
export function cpuMsByPid(pids: readonly number[]): Map<number, number> {
  const times = new Map<number, number>();
  for (const pid of pids) {
    try {
      times.set(pid, cpuMsOf(pid));
    } catch {
      // Exited.
    }
  }
  return times;
}

/**
 * The CPU a changing set of processes used between two readings: a process that appeared in
 * between counts from zero; one that exited in between is lost (its last reading is unknown).
 */
export function cpuMsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, ms] of after) sum += ms - (before.get(pid) ?? 0);
  return sum;
}

/** Time on a CPU (ns) of every thread of a process that is still running (/proc/<pid>/task/*\/schedstat). */
export function runNsOf(pid: number): number {
  let sum = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      sum += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A thread that ended.
    }
  }
  return sum;
}
