/**
 * Where a V8 CPU profile (node --cpu-prof) spends its time: self time by function, and by area
 * (a package, a file of this project, node internals, GC).
 * Usage: tsx bench/profile-summary.ts FILE.cpuprofile [top]
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
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

/** The top functions by self time and the areas, as text. */
export function summarizeProfile(file: string, top = 25): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  for (const [i, id] of profile.samples.entries())
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  const total = [...self.values()].reduce((sum, us) => sum + us, 0);
  const idle = [...self.entries()]
    .filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)')
    .reduce((sum, [, us]) => sum + us, 0);
  const busy = total - idle;

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
  const share = (us: number) => `${((us / busy) * 100).toFixed(1).padStart(5)}%`;
  const list = (map: Map<string, number>, count: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, us]) => `  ${share(us)}  ${key}`)
      .join('\n');
  return [
    `${file}: ${(total / 1e6).toFixed(1)} s profiled, busy ${(busy / 1e6).toFixed(1)} s (shares are of busy time)`,
    'by area (self time):',
    list(areas, 15),
    `top ${top} functions (self time):`,
    list(functions, top),
    `top ${top} functions of this project (inclusive time, synchronous callees only):`,
    list(inclusive, top),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: tsx bench/profile-summary.ts FILE.cpuprofile [top]\n');
    process.exit(2);
  }
  process.stdout.write(`${summarizeProfile(file, top ? Number(top) : 25)}\n`);
}
