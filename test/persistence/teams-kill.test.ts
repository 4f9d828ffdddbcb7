/**
 * The database of teams and players through kill -9 (issue 34): the service as its own process,
 * players saved one after another; killed with the next save in flight. After a restart every save
 * that was answered is there, the one in flight is there whole or not at all, and teams.json reads.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/build.ts';
import { post, startCli } from '../helpers/cli-process.ts';

const ARGS = ['--headless', '--no-obs', '--log-level', 'warn'];
const steamidOf = (n: number) => String(76561198000000000n + BigInt(n));

describe('teams and players through kill -9', () => {
  it('every answered save survives a kill with the next one in flight', async () => {
    const dataDir = await tempDir();
    const cli = await startCli([...ARGS, '--data-dir', dataDir]);
    const answered: number[] = [];
    for (let n = 1; n <= 25; n++) {
      const answer = await post(cli.httpUrl, 'save_player', { steamid: steamidOf(n), name: `Игрок ${n}` });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      answered.push(n);
    }
    // The 26th is asked for and the process killed before (or while) it is written.
    const inFlight = post(cli.httpUrl, 'save_player', { steamid: steamidOf(26), name: 'Игрок 26' }).catch(
      () => null,
    );
    cli.child.kill('SIGKILL');
    expect((await cli.exited).signal).toBe('SIGKILL');
    await inFlight;

    const file = JSON.parse(await readFile(join(dataDir, 'teams.json'), 'utf8'));
    expect(file).toMatchObject({ format: 'hud-automation.teams', version: 1 });
    const again = await startCli([...ARGS, '--data-dir', dataDir]);
    try {
      const { players } = (await (await fetch(`${again.httpUrl}/api/players`)).json()) as {
        players: Array<{ steamid: string; name: string }>;
      };
      const saved = new Map(players.map((player) => [player.steamid, player.name]));
      for (const n of answered) expect(saved.get(steamidOf(n))).toBe(`Игрок ${n}`);
      expect([25, 26]).toContain(players.length);
      if (players.length === 26) expect(saved.get(steamidOf(26))).toBe('Игрок 26');
    } finally {
      again.child.kill('SIGKILL');
      await again.exited;
    }
  });
});
