/**
 * Where a V8 CPU profile (node --cpu-prof) spends its time: self time by function, and by area
 * (a package, a file of this project, node internals, GC).
 * Usage: tsx bench/profile-summary.ts FILE.cpuprofile [top] [requests]
 * With the number of requests the profile served, each line also gives microseconds per request.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { isAbsolute } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

function areaOf(url: string, name: string): string {
  if (url === '') return name.startsWith('(') ? name : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg?.[1]) return pkg[1];
  if (url.startsWith('node:')) return 'node internals';
  const own = /\/((?:dist\/)?(?:src|machines)\/.*)$/.exec(url);
  return own?.[1] ?? url;
}

/**
 * Frames of a bundle (dist/server.cjs, built with its source map beside it; dist/cli.js runs it
 * through vm.Script, so its frames carry a path, not a file: URL) named by the file and line they
 * were built from, so that a profile of the built CLI reads like one of the sources.
 */
function toSources(profile: Profile): void {
  const maps = new Map<string, SourceMap | null>();
  for (const { callFrame: frame } of profile.nodes) {
    const path = frame.url.startsWith('file://') ? fileURLToPath(frame.url) : frame.url;
    if (!isAbsolute(path) || !/\.c?js$/.test(path)) continue;
    let map = maps.get(path);
    if (map === undefined) {
      const file = `${path}.map`;
      map = existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : null;
      maps.set(path, map);
    }
    const entry = map?.findEntry(frame.lineNumber, frame.columnNumber);
    if (!entry || !('originalSource' in entry) || !entry.originalSource) continue;
    frame.url = new URL(entry.originalSource, pathToFileURL(path)).href;
    frame.lineNumber = entry.originalLine;
  }
}

/**
 * A stretch of the profile to count, in microseconds of the monotonic clock (V8's profile times and
 * `process.hrtime` in any process of the machine read the same clock): the measured load only, without start-up.
 */
export interface ProfileWindow {
  fromUs: number;
  toUs: number;
}

/** Self time (µs) of a profile by function and by area, and the busy and total time it covers. */
export interface Tally {
  profile: Profile;
  byId: Map<number, ProfileNode>;
  self: Map<number, number>;
  total: number;
  busy: number;
  functions: Map<string, number>;
  areas: Map<string, number>;
}

export function tallyProfile(file: string, window?: ProfileWindow): Tally {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  toSources(profile);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  let at = profile.startTime;
  for (const [i, id] of profile.samples.entries()) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (window && (at < window.fromUs || at > window.toUs)) continue;
    self.set(id, (self.get(id) ?? 0) + delta);
  }
  const total = [...self.values()].reduce((sum, us) => sum + us, 0);
  const idle = [...self.entries()]
    .filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)')
    .reduce((sum, [, us]) => sum + us, 0);

  const functions = new Map<string, number>();
  const areas = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = (byId.get(id) as ProfileNode).callFrame;
    if (functionName === '(idle)') continue;
    const area = areaOf(url, functionName);
    const key = `${functionName || '(anonymous)'}  ${area}${url ? `:${lineNumber + 1}` : ''}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
    areas.set(area, (areas.get(area) ?? 0) + us);
  }
  return { profile, byId, self, total, busy: total - idle, functions, areas };
}

/**
 * Where one profile spends more per request than another (the service against the floor): areas and
 * functions by the difference of their self time per request, largest first.
 */
export function diffProfiles(
  a: { tally: Tally; requests: number },
  b: { tally: Tally; requests: number },
  top = 30,
): string {
  const differences = (of: (tally: Tally) => Map<string, number>) => {
    const keys = new Set([...of(a.tally).keys(), ...of(b.tally).keys()]);
    return [...keys]
      .map((key): [string, number] => [
        key,
        (of(a.tally).get(key) ?? 0) / a.requests - (of(b.tally).get(key) ?? 0) / b.requests,
      ])
      .sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]));
  };
  const lines = (rows: Array<[string, number]>, count: number) =>
    rows
      .slice(0, count)
      .map(([key, us]) => `  ${(us >= 0 ? '+' : '') + us.toFixed(2).padStart(6)} µs/req  ${key}`)
      .join('\n');
  const busy = a.tally.busy / a.requests - b.tally.busy / b.requests;
  return [
    `busy time: ${(busy >= 0 ? '+' : '') + busy.toFixed(1)} µs/req (${(a.tally.busy / a.requests).toFixed(1)} against ${(b.tally.busy / b.requests).toFixed(1)})`,
    'by area (self time):',
    lines(
      differences((tally) => tally.areas),
      15,
    ),
    `top ${top} functions (self time):`,
    lines(
      differences((tally) => tally.functions),
      top,
    ),
  ].join('\n');
}

/** The top functions by self time and the areas, as text. */
export function summarizeProfile(file: string, top = 25, requests = 0, window?: ProfileWindow): string {
  const { profile, byId, self, total, busy, functions, areas } = tallyProfile(file, window);
  // Inclusive time of this project's functions: each sample counts once for every distinct one on its stack.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url, lineNumber } = (byId.get(at) as ProfileNode).callFrame;
      const area = areaOf(url, functionName);
      if (!/^(?:dist\/)?(?:src|machines)\//.test(area)) continue;
      const key = `${functionName || '(anonymous)'}  ${area}:${lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  const perRequest = (us: number) =>
    requests > 0 ? `  ${(us / requests).toFixed(2).padStart(6)} µs/req` : '';
  const share = (us: number) => `${((us / busy) * 100).toFixed(1).padStart(5)}%${perRequest(us)}`;
  const list = (map: Map<string, number>, count: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, us]) => `  ${share(us)}  ${key}`)
      .join('\n');
  return [
    `${file}: ${(total / 1e6).toFixed(1)} s profiled, busy ${(busy / 1e6).toFixed(1)} s (shares are of busy time)${requests > 0 ? `; ${requests} requests, busy ${(busy / requests).toFixed(1)} µs/req` : ''}`,
    'by area (self time):',
    list(areas, 15),
    `top ${top} functions (self time):`,
    list(functions, top),
    `top ${top} functions of this project (inclusive time, synchronous callees only):`,
    list(inclusive, top),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, top, requests] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: tsx bench/profile-summary.ts FILE.cpuprofile [top]\n');
    process.exit(2);
  }
  process.stdout.write(
    `${summarizeProfile(file, top ? Number(top) : 25, requests ? Number(requests) : 0)}\n`,
  );
}
