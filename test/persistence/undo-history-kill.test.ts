/**
 * Issue 33: the undo history survives a kill -9 like the rest of the saved state. A server in a
 * child process takes changes (one of them undone, so redo holds one too), is killed with SIGKILL
 * right after its answers, and the next start has the same history; undo and redo then bring back
 * the exact match they would have before the kill.
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/build.ts';
import { post, startCli } from '../helpers/cli-process.ts';

async function read(httpUrl: string) {
  const [state, match] = await Promise.all([
    fetch(`${httpUrl}/api/state`).then((response) => response.json() as Promise<Record<string, any>>),
    fetch(`${httpUrl}/api/match`).then((response) => response.json() as Promise<Record<string, any>>),
  ]);
  return { history: state.state.history, match: match.match };
}

const ok = async (httpUrl: string, action: string, payload?: unknown) => {
  const answer = await post(httpUrl, action, payload);
  expect(answer.status, `${action}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body;
};

describe('the undo history across a kill -9', () => {
  it('comes back whole after SIGKILL, and undo and redo go on from it', async () => {
    const dataDir = await tempDir();
    const start = () => startCli(['--headless', '--no-obs', '--data-dir', dataDir, '--log-level', 'warn']);

    const first = await start();
    await ok(first.httpUrl, 'set_teams', {
      teamA: { name: 'Natus Vincere', tag: 'NAVI' },
      teamB: { name: 'FaZe Clan' },
    });
    const named = await read(first.httpUrl);
    await ok(first.httpUrl, 'set_event_name', { name: 'IEM Cologne 2026' });
    const withEvent = await read(first.httpUrl);
    await ok(first.httpUrl, 'swap_sides');
    await ok(first.httpUrl, 'undo');
    const before = await read(first.httpUrl);
    expect(before.history.undo.map((entry: { label: string }) => entry.label)).toEqual([
      'Event name: IEM Cologne 2026',
      'Teams: Natus Vincere vs FaZe Clan',
    ]);
    expect(before.history.redo.map((entry: { label: string }) => entry.label)).toEqual([
      'Swap sides: Natus Vincere on T',
    ]);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await start();
    try {
      const after = await read(second.httpUrl);
      expect(after).toEqual(before);
      expect((await ok(second.httpUrl, 'undo')).result.undone.label).toBe('Event name: IEM Cologne 2026');
      expect((await read(second.httpUrl)).match).toEqual(named.match);
      await ok(second.httpUrl, 'redo');
      expect((await read(second.httpUrl)).match).toEqual(withEvent.match);
    } finally {
      second.child.kill('SIGKILL');
      await second.exited;
    }
  }, 120_000);
});
