/**
 * `hud-automation gsi-config` as its own process against a fake Steam: a home folder with Steam's
 * libraryfolders.vdf listing a second library that holds CS2, made by the test.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'vdf-parser';
import { describe, expect, it } from 'vitest';
import { loadOrCreateToken } from '../../src/access/access-token.ts';
import { CFG_FILE_NAME, findCs2Installs, libraryPaths, readVdf } from '../../src/game/gsi-config.ts';
import { tempDir } from '../helpers/build.ts';
import { cliEntry } from '../helpers/cli-process.ts';

const CS2 = join('steamapps', 'common', 'Counter-Strike Global Offensive');

function runCli(args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [...cliEntry(), 'gsi-config', ...args],
      { env: { ...process.env, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
    );
  });
}

/** A home with Steam in its Linux default place, and CS2 in a second library only. */
async function fakeSteam() {
  const home = await tempDir('hud-home-');
  const library = await tempDir('hud-library-');
  const steam = join(home, '.local', 'share', 'Steam');
  await mkdir(join(steam, 'steamapps'), { recursive: true });
  await mkdir(join(library, CS2, 'game', 'csgo'), { recursive: true });
  await writeFile(
    join(steam, 'steamapps', 'libraryfolders.vdf'),
    stringify(
      {
        libraryfolders: {
          0: { path: steam, label: '', apps: { 228980: '1' } },
          1: { path: library, label: '', apps: { 730: '1' } },
        },
      },
      { pretty: true, indent: '\t' },
    ),
  );
  return { home, steam, library, cfg: join(library, CS2, 'game', 'csgo', 'cfg', CFG_FILE_NAME) };
}

describe('hud-automation gsi-config', () => {
  it('--install writes the cfg into the CS2 of every library, the VDF parser reads it back, --check finds it', async () => {
    const { home, library, cfg } = await fakeSteam();
    const dataDir = await tempDir();
    const env = { HOME: home };
    expect(await findCs2Installs([join(home, '.local', 'share', 'Steam')])).toEqual([join(library, CS2)]);

    expect((await runCli(['--check', '--data-dir', dataDir], env)).code).toBe(1);
    const installed = await runCli(['--install', '--data-dir', dataDir, '--app-port', '45123'], env);
    expect(installed).toMatchObject({ code: 0, stdout: expect.stringContaining(cfg) });

    const parsed = readVdf(await readFile(cfg, 'utf8'));
    const [block] = Object.values(parsed) as Array<Record<string, any>>;
    expect(block?.uri).toBe('http://127.0.0.1:45123/gsi');
    // The token the server of this data directory checks.
    expect(block?.auth.token).toBe(await loadOrCreateToken(join(dataDir, 'gsi-token')));
    for (const section of [
      'allplayers_id',
      'allplayers_state',
      'allplayers_weapons',
      'phase_countdowns',
      'bomb',
    ]) {
      expect(block?.data[section]).toBe('1');
    }

    const check = await runCli(['--check', '--data-dir', dataDir, '--app-port', '45123'], env);
    expect(check).toMatchObject({ code: 0, stdout: expect.stringContaining('installed and current') });
    // Another port is another server: the installed file is not current for it.
    const other = await runCli(['--check', '--data-dir', dataDir], env);
    expect(other).toMatchObject({ code: 1, stdout: expect.stringContaining('outdated') });
    // A real cfg of another tool (Valve's comments, braces on the key's line) reads, and is not current.
    await writeFile(
      cfg,
      await readFile(
        new URL(
          '../fixtures/gsi_cfg__nodecg-csgo-manager__gamestate_integration_nodecg.cfg',
          import.meta.url,
        ),
        'utf8',
      ),
    );
    const foreign = await runCli(['--check', '--data-dir', dataDir, '--app-port', '45123'], env);
    expect(foreign).toMatchObject({ code: 1, stdout: expect.stringContaining('outdated') });
  });

  it('prints the cfg and where it goes; --address writes another host; --cs2-dir names the install', async () => {
    const { home, library, cfg } = await fakeSteam();
    const dataDir = await tempDir();
    const printed = await runCli(['--data-dir', dataDir], { HOME: home });
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain('"uri" "http://127.0.0.1:44554/gsi"');
    expect(printed.stderr).toContain(cfg);

    const cs2Dir = join(library, CS2);
    const lan = await runCli(
      ['--install', '--cs2-dir', cs2Dir, '--address', '192.168.1.20', '--data-dir', dataDir],
      {
        HOME: await tempDir(),
      },
    );
    expect(lan.code).toBe(0);
    const [block] = Object.values(readVdf(await readFile(cfg, 'utf8'))) as Array<Record<string, any>>;
    expect(block?.uri).toBe('http://192.168.1.20:44554/gsi');
  });

  it('without any CS2, --install says so and exits 1; a folder that is not CS2 is refused', async () => {
    const dataDir = await tempDir();
    const none = await runCli(['--install', '--data-dir', dataDir], { HOME: await tempDir() });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no CS2 install found');
    const notCs2 = await runCli(['--install', '--cs2-dir', await tempDir(), '--data-dir', dataDir], {});
    expect(notCs2.code).toBe(1);
    expect(notCs2.stderr).toContain('is not a CS2 install folder');
  });

  it('reads the libraries of an older libraryfolders.vdf and unescapes Windows paths', () => {
    const old = '"LibraryFolders"\n{\n\t"TimeNextStatsReport"\t"1"\n\t"1"\t"D:\\\\SteamLibrary"\n}\n';
    expect(libraryPaths(old)).toEqual(['D:\\SteamLibrary']);
  });
});
