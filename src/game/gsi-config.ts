/**
 * The game's side of game data: the cfg file (Game State Integration) that makes CS2 POST its
 * state to the application server, where it goes, and whether an installed one is current. VDF is
 * read and written with vdf-parser, which reads what the game's KeyValues reads (comments, a brace on
 * the key's line); docs/game-data.md has its traps and the timings.
 */
import { access, mkdir, readFile } from 'node:fs/promises';
import { homedir, networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'vdf-parser';
import type { InstallState } from '../protocol/game.ts';
import { GAME_DATA_PATH } from '../protocol/game.ts';
import { writeFileAtomic } from '../persistence/atomic-file.ts';

export const CFG_FILE_NAME = 'gamestate_integration_hudautomation.cfg';
/** Where the game reads gamestate_integration_*.cfg, inside its install folder. */
export const CFG_SUBDIR = join('game', 'csgo', 'cfg');
/** CS2 installs into the folder CS:GO had. */
export const CS2_FOLDER = join('steamapps', 'common', 'Counter-Strike Global Offensive');

/** Seconds, as the cfg wants them; docs/game-data.md explains each choice. */
export const GSI_TIMINGS = { timeout: '1.0', buffer: '0.0', throttle: '0.05', heartbeat: '2.0' } as const;

/** Every section a spectator HUD reads; the allplayers_* and the grenades come only to spectators. */
export const GSI_SECTIONS = [
  'provider',
  'map',
  'round',
  'player_id',
  'player_state',
  'player_weapons',
  'player_match_stats',
  'player_position',
  'allplayers_id',
  'allplayers_state',
  'allplayers_match_stats',
  'allplayers_weapons',
  'allplayers_position',
  'phase_countdowns',
  'allgrenades',
  'map_round_wins',
  'bomb',
] as const;

export interface CfgTarget {
  /** Host the game posts to: 127.0.0.1, or this machine's local-network address for a game on another PC. */
  host: string;
  appPort: number;
  token: string;
}

export const gameDataUri = ({ host, appPort }: Omit<CfgTarget, 'token'>) =>
  `http://${host.includes(':') ? `[${host}]` : host}:${appPort}${GAME_DATA_PATH}`;

function cfgObject(target: CfgTarget) {
  return {
    'HUD Automation game data': {
      uri: gameDataUri(target),
      ...GSI_TIMINGS,
      auth: { token: target.token },
      data: Object.fromEntries(GSI_SECTIONS.map((section) => [section, '1'])),
    },
  };
}

/** The cfg file's text. */
export function cfgText(target: CfgTarget): string {
  const header =
    '// Written by hud-automation (hud-automation gsi-config): CS2 posts its game state to the\n' +
    '// application server. Keep the auth token secret; install again after changing the port.\n';
  return `${header}${stringify(cfgObject(target), { pretty: true, indent: '\t' })}`;
}

/** The first private IPv4 address of this machine (for a game on another PC), or null. */
export function lanAddress(): string | null {
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      if (entry.family === 'IPv4' && !entry.internal) return entry.address;
    }
  }
  return null;
}

/** Steam's own folders on this system, where libraryfolders.vdf lists the libraries. */
export function defaultSteamRoots(platform = process.platform, home = homedir()): string[] {
  if (platform === 'win32') {
    const x86 = process.env['ProgramFiles(x86)'] ?? 'C:\\Program Files (x86)';
    const plain = process.env.ProgramFiles ?? 'C:\\Program Files';
    return [join(x86, 'Steam'), join(plain, 'Steam')];
  }
  if (platform === 'darwin') return [join(home, 'Library', 'Application Support', 'Steam')];
  return [
    join(home, '.local', 'share', 'Steam'),
    join(home, '.steam', 'steam'),
    join(home, '.var', 'app', 'com.valvesoftware.Steam', '.local', 'share', 'Steam'),
    join(home, 'snap', 'steam', 'common', '.local', 'share', 'Steam'),
  ];
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * The library folders a libraryfolders.vdf lists. Newer files have `"0" { "path" "…" }`, older ones
 * `"1" "path"`. The parser keeps escaped backslashes as written: Windows paths are unescaped here.
 */
export function libraryPaths(text: string): string[] {
  const parsed = readVdf(text);
  const root = (parsed.libraryfolders ?? parsed.LibraryFolders ?? {}) as Record<string, unknown>;
  const paths: string[] = [];
  for (const [key, value] of Object.entries(root)) {
    if (!/^\d+$/.test(key)) continue;
    const path = typeof value === 'string' ? value : (value as { path?: unknown })?.path;
    if (typeof path === 'string' && path !== '') paths.push(path.replace(/\\\\/g, '\\'));
  }
  return paths;
}

/** CS2 install folders under the given Steam roots: every library libraryfolders.vdf lists, and the root. */
export async function findCs2Installs(steamRoots: readonly string[]): Promise<string[]> {
  const libraries = new Set<string>();
  for (const root of steamRoots) {
    if (!(await exists(root))) continue;
    libraries.add(root);
    for (const file of [
      join(root, 'steamapps', 'libraryfolders.vdf'),
      join(root, 'config', 'libraryfolders.vdf'),
    ]) {
      const text = await readFile(file, 'utf8').catch(() => null);
      if (text === null) continue;
      try {
        for (const path of libraryPaths(text)) libraries.add(path);
      } catch {
        // A damaged libraryfolders.vdf leaves the root itself to look in.
      }
    }
  }
  const installs: string[] = [];
  for (const library of libraries) {
    const game = join(library, CS2_FOLDER);
    if ((await exists(join(game, 'game', 'csgo'))) && !installs.includes(game)) installs.push(game);
  }
  return installs;
}

/** VDF as text values (no number guessing) and the last of repeated keys, as the game reads a cfg. */
export const readVdf = (text: string) =>
  parse<Record<string, unknown>>(text, { types: false, arrayify: false });

export const cfgPathIn = (cs2Dir: string) => join(cs2Dir, CFG_SUBDIR, CFG_FILE_NAME);

export type { CfgState, InstallState } from '../protocol/game.ts';

/** Whether the installed file says what `text` says (same address, token, timings and sections). */
export async function cfgStateIn(cs2Dir: string, text: string): Promise<InstallState> {
  const path = cfgPathIn(cs2Dir);
  const installed = await readFile(path, 'utf8').catch(() => null);
  if (installed === null) return { cs2Dir, path, state: 'missing' };
  try {
    const same = JSON.stringify(readVdf(installed)) === JSON.stringify(readVdf(text));
    return { cs2Dir, path, state: same ? 'current' : 'outdated' };
  } catch {
    return { cs2Dir, path, state: 'unreadable' };
  }
}

/** Writes the cfg into a CS2 install (its cfg folder is made if the game has not made it yet). */
export async function installCfg(cs2Dir: string, text: string): Promise<InstallState> {
  if (!(await exists(join(cs2Dir, 'game', 'csgo')))) {
    throw new Error(`${cs2Dir} is not a CS2 install folder: it has no game/csgo`);
  }
  await mkdir(join(cs2Dir, CFG_SUBDIR), { recursive: true });
  // Whole or not at all: a crash mid-write must not leave the game a half cfg.
  await writeFileAtomic(cfgPathIn(cs2Dir), text, { mode: 0o644 });
  return cfgStateIn(cs2Dir, text);
}

/** Writes the cfg into each install, one after the other; what each holds afterwards. */
export async function installCfgIn(cs2Dirs: readonly string[], text: string): Promise<InstallState[]> {
  const states: InstallState[] = [];
  for (const dir of cs2Dirs) states.push(await installCfg(dir, text));
  return states;
}
