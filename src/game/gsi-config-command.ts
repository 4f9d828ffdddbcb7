/**
 * `hud-automation gsi-config`: prints the cfg file the game needs and where it goes; `--install`
 * writes it into every CS2 install found through Steam (or `--cs2-dir`); `--check` tells whether an
 * installed one is present and current (exit 0) or not (exit 1).
 */
import { join } from 'node:path';
import { loadOrCreateToken } from '../access/access-token.ts';
import { GAME_TOKEN_FILE } from '../persistence/data-dir.ts';
import type { InstallState } from './gsi-config.ts';
import {
  CFG_FILE_NAME,
  CFG_SUBDIR,
  cfgStateIn,
  cfgText,
  defaultSteamRoots,
  findCs2Installs,
  installCfgIn,
  lanAddress,
} from './gsi-config.ts';

export interface GsiConfigOptions {
  dataDir: string;
  appPort: number;
  install: boolean;
  check: boolean;
  /** CS2 install folders given on the command line; none: the ones Steam's libraries list. */
  cs2Dirs: string[];
  /** The host the game posts to: 127.0.0.1, or this machine's local-network address with --lan. */
  host: 'loopback' | 'lan' | string;
}

export interface Output {
  out(text: string): void;
  err(text: string): void;
}

const STATE_TEXT: Record<InstallState['state'], string> = {
  current: 'installed and current',
  outdated: 'installed but outdated (another port, address or token): run gsi-config --install',
  missing: 'not installed',
  unreadable: 'present but not readable as a cfg file: run gsi-config --install',
};

/** Runs the command; the exit code is the answer. */
export async function runGsiConfig(options: GsiConfigOptions, io: Output): Promise<number> {
  if (options.install && options.check) throw new Error('choose --install or --check, not both');
  const host =
    options.host === 'loopback' ? '127.0.0.1' : options.host === 'lan' ? lanAddress() : options.host;
  if (!host) throw new Error('this machine has no local-network address: connect it to the network first');
  const token = await loadOrCreateToken(join(options.dataDir, GAME_TOKEN_FILE));
  const text = cfgText({ host, appPort: options.appPort, token });
  const dirs = options.cs2Dirs.length > 0 ? options.cs2Dirs : await findCs2Installs(defaultSteamRoots());

  if (options.install) {
    if (dirs.length === 0) {
      io.err(
        `no CS2 install found in Steam's libraries: give one with --cs2-dir, or save the file printed by gsi-config as <CS2 folder>/${join(CFG_SUBDIR, CFG_FILE_NAME)}\n`,
      );
      return 1;
    }
    for (const state of await installCfgIn(dirs, text)) io.out(`installed ${state.path}\n`);
    io.out('CS2 reads the file when it starts: restart it if it is running.\n');
    return 0;
  }

  if (options.check) {
    if (dirs.length === 0) {
      io.out("no CS2 install found in Steam's libraries (give one with --cs2-dir)\n");
      return 1;
    }
    const states = await Promise.all(dirs.map((dir) => cfgStateIn(dir, text)));
    for (const state of states) io.out(`${state.path}: ${STATE_TEXT[state.state]}\n`);
    return states.every((state) => state.state === 'current') ? 0 : 1;
  }

  io.out(text);
  const where =
    dirs.length > 0
      ? dirs.map((dir) => `  ${join(dir, CFG_SUBDIR, CFG_FILE_NAME)}`).join('\n')
      : `  <CS2 folder>/${join(CFG_SUBDIR, CFG_FILE_NAME)} (no install found in Steam's libraries)`;
  io.err(`\nSave it as:\n${where}\nor run hud-automation gsi-config --install\n`);
  return 0;
}
