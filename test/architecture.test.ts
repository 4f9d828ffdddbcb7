/**
 * The house's layering (docs/architecture.md): a part imports only the parts below it, and the
 * transports, the servers and the IO providers never import each other. machines/ stays pure, and
 * the pages import only the protocol, machines/ and their own files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Each part's level: a part may import its own level's files and the levels below. */
const LEVEL: Record<string, number> = {
  machines: 0,
  protocol: 1,
  // Pure helpers of the network: address classes, network errors in words.
  net: 1,
  version: 1,
  // The signal of a started service to dist/cli.js (src/launcher.ts), which runs the built CLI.
  'compile-cache-hook': 1,
  logger: 1,
  inspector: 1,
  // IO provided to the machines and the commands: the importers, the OBS socket, the game's console,
  // the third-party player-stats providers.
  import: 2,
  obs: 2,
  observer: 2,
  // Record and replay game data: the recorder actor's file writer and replayer.
  recorder: 2,
  stats: 2,
  settings: 3,
  core: 4,
  persistence: 5,
  access: 6,
  // The transports.
  http: 7,
  ws: 7,
  game: 7,
  // The two servers, each built from the transports.
  'automation-server': 8,
  'app-server': 8,
  service: 9,
  server: 10,
  cli: 11,
  launcher: 12,
};

/** The part a file belongs to: machines/, a folder of src/, or a file at the top of src/. */
function partOf(file: string): string {
  if (file.startsWith('machines/')) return 'machines';
  const [, part = ''] = file.split('/');
  return part.replace(/\.tsx?$/, '');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

/** Every import of a file, relative ones resolved to a path from the project root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/gm),
    ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
  ];
  return specifiers.map(([, specifier = '']) =>
    specifier.startsWith('.') ? relative(ROOT, join(ROOT, dirname(file), specifier)) : specifier,
  );
}

const server = [...sourceFiles('machines'), ...sourceFiles('src')].filter((f) => !f.startsWith('src/pages/'));

describe('the layering', () => {
  it('knows every part of the server', () => {
    const unknown = [...new Set(server.map(partOf))].filter((part) => LEVEL[part] === undefined);
    expect(unknown).toEqual([]);
  });

  it('has no import that runs against it', () => {
    const against: string[] = [];
    for (const file of server) {
      const from = partOf(file);
      for (const target of importsOf(file)) {
        if (!target.startsWith('src/') && !target.startsWith('machines/')) continue;
        const to = partOf(target);
        if (to === from) continue;
        const [a, b] = [LEVEL[from] as number, LEVEL[to] as number];
        if (b > a || (b === a && from !== to)) against.push(`${file} -> ${target}`);
      }
    }
    expect(against).toEqual([]);
  });

  it('keeps machines/ pure: xstate and its own files only', () => {
    const foreign = sourceFiles('machines').flatMap((file) =>
      importsOf(file)
        .filter((target) => target !== 'xstate' && !target.startsWith('machines/'))
        .map((target) => `${file} -> ${target}`),
    );
    expect(foreign).toEqual([]);
  });

  it('lets the pages import only the protocol, machines/ and their own files', () => {
    const foreign = sourceFiles('src/pages').flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith('src/') || target.startsWith('machines/'))
        .filter((target) => !/^(src\/protocol\/|src\/pages\/|machines\/)/.test(target))
        .map((target) => `${file} -> ${target}`),
    );
    expect(foreign).toEqual([]);
  });
});

describe('the pages call commands by the contract', () => {
  const pages = sourceFiles('src/pages').map((file) => ({
    file,
    text: readFileSync(join(ROOT, file), 'utf8'),
  }));

  it('run commands only through functions typed by the contract (src/protocol/commands.ts)', () => {
    // A function that runs a command by a name typed `string` (and so takes any payload) compiles
    // whatever a page sends: the names and payloads must be CommandName and its payload.
    const untyped = pages.flatMap(({ file, text }) =>
      [...text.matchAll(/\b(trigger|run)\b\s*[:=]?\s*(?:async\s*)?\(\s*action\s*\??:\s*string/g)].map(
        (found) => `${file}: ${found[0]}`,
      ),
    );
    // A trigger message built by hand bypasses the typed client.
    const byHand = pages
      .filter(({ file, text }) => file !== 'src/pages/common/client.ts' && /type:\s*'trigger'/.test(text))
      .map(({ file }) => file);
    expect([...untyped, ...byHand]).toEqual([]);
  });

  it('name only commands of the contract', async () => {
    const { COMMAND_NAMES } = await import('../src/protocol/commands.ts');
    const known = new Set<string>(COMMAND_NAMES);
    const named = pages.flatMap(({ file, text }) =>
      [
        ...text.matchAll(/\b(?:trigger|run)\(\s*'([^']+)'/g),
        ...text.matchAll(/(?<![-\w])action="([^"]+)"/g),
      ].map(([, name = '']) => ({ file, name })),
    );
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter(({ name }) => !known.has(name))).toEqual([]);
  });
});

describe('each actor is described once', () => {
  it('saves only the parts its descriptor declares (src/persistence/saved-parts.ts)', async () => {
    const { SavedStateSchema, SAVED_STAMP_KEYS } = await import('../src/persistence/saved-state.ts');
    const { SAVED_PARTS, SAVED_PART_KEYS } = await import('../src/persistence/saved-parts.ts');
    const { ACTOR_KEYS } = await import('../src/core/hud-system.ts');
    // The document is the stamp and the declared parts, nothing written beside them.
    expect(Object.keys(SavedStateSchema.properties)).toEqual([...SAVED_STAMP_KEYS, ...SAVED_PART_KEYS]);
    const actors = new Set<string>(ACTOR_KEYS);
    const strays = SAVED_PART_KEYS.flatMap((key) =>
      SAVED_PARTS[key].sources.filter((source) => !actors.has(source)).map((source) => `${key} <- ${source}`),
    );
    expect(strays).toEqual([]);
    // Only the descriptors read an actor's snapshot or take a machine's values for the saved state:
    // a part built anywhere else would be saved outside them.
    const persistence = sourceFiles('src/persistence').filter(
      (file) => file !== 'src/persistence/saved-parts.ts',
    );
    const outside = persistence.flatMap((file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const reads = /\.context\b/.test(text) ? [`${file} reads a snapshot's context`] : [];
      const values = [...text.matchAll(/^import\s+(?!type\b)[^'"]*from\s+'([^']*machines\/[^']+)'/gm)].map(
        ([, target]) => `${file} imports values of ${target}`,
      );
      return [...reads, ...values];
    });
    expect(outside).toEqual([]);
  });

  it('rebuilds the HUD state from every actor hudStateOf reads (hudState in the roster)', async () => {
    const { HUD_STATE_SOURCES } = await import('../src/core/views.ts');
    const text = readFileSync(join(ROOT, 'src/core/views.ts'), 'utf8');
    const body = text.slice(
      text.indexOf('export function hudStateOf'),
      text.indexOf('\n}\n', text.indexOf('export function hudStateOf')),
    );
    const read = new Set([...body.matchAll(/\bsnapshots\.(\w+)/g)].map(([, key = '']) => key));
    expect(read.size).toBeGreaterThan(2);
    expect([...read].filter((key) => !HUD_STATE_SOURCES.includes(key as never))).toEqual([]);
  });
});

describe('what travels without a revision', () => {
  it('goes by one typed bus (src/core/notices.ts): no other emitter in the server but the hub', () => {
    // mitt's emitter, or Node's EventEmitter made or extended here (not a library's own events).
    const emitters = server.filter((file) =>
      /^import\s+\w+\s+from\s+'mitt'|\b(new|extends)\s+EventEmitter\b/m.test(
        readFileSync(join(ROOT, file), 'utf8'),
      ),
    );
    expect(emitters.sort()).toEqual(['src/core/notices.ts', 'src/core/state-hub.ts']);
  });
});
