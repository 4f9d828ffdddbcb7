import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEASE_FILE, LOCK_FILE } from '../../src/persistence/data-dir.ts';
import { build, command, get, tempDir } from '../helpers/build.ts';
import { startCli } from '../helpers/cli-process.ts';
import { connect } from '../helpers/ws-client.ts';

const serve = (dataDir: string) => ['--headless', '--no-obs', '--data-dir', dataDir, '--log-level', 'warn'];
const CYCLES = 5;

const leaseOf = async (dataDir: string): Promise<number> =>
  JSON.parse(await readFile(join(dataDir, LEASE_FILE), 'utf8')).startAt;

describe('revisions that never lie', () => {
  it(`kill -9 of a real server under commands from a WebSocket client, ${CYCLES} times: no revision seen before a kill comes back, the restart goes on above all of them`, async () => {
    const dataDir = await tempDir();
    /** Every revision the client saw, with the event name it showed at that revision. */
    const seen = new Map<number, string>();
    let maxSeen = -1;
    let lies = 0;
    const see = (revision: number, eventName: string) => {
      const before = seen.get(revision);
      if (before !== undefined && before !== eventName) lies++;
      seen.set(revision, eventName);
      maxSeen = Math.max(maxSeen, revision);
    };
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const cli = await startCli(serve(dataDir));
      const socket = await connect(cli.httpUrl.replace('http', 'ws'));
      const hello = await socket.next();
      const { revision, match } = hello.snapshot;
      // The rule: after a kill, the restart's revision is above every revision a client may have seen.
      if (cycle > 0) expect(revision, `cycle ${cycle}: restart revision`).toBeGreaterThan(maxSeen);
      see(revision, match.eventName);

      // Commands one at a time; the kill comes as soon as the last one's event has arrived, before its
      // answer: its revision was sent, its write may or may not have been made.
      const last = 4 + 3 * cycle;
      for (let n = 1; n <= last; n++) {
        const name = `cycle-${cycle}-${n}`;
        socket.send({ type: 'trigger', id: name, action: 'set_event_name', payload: { name } });
        await socket.waitFor((m) => m.type === 'event' && m.event === 'match' && m.data.eventName === name);
        if (n === last) cli.child.kill('SIGKILL');
        else await socket.waitFor((m) => m.type === 'result' && m.id === name);
      }
      expect((await cli.exited).signal).toBe('SIGKILL');
      // What the client saw, revision by revision (the events of one revision come together).
      let current = match.eventName as string;
      let at = revision;
      for (const message of socket.received) {
        if (message.type !== 'event') continue;
        if (message.revision !== at) see(at, current);
        at = message.revision;
        if (message.event === 'match') current = message.data.eventName;
      }
      see(at, current);
    }
    expect(lies).toBe(0);
    expect(seen.size).toBeGreaterThan(CYCLES * 4);
  }, 300_000);

  it('the lease on disk is always above every revision sent; a copy of the files mid-run (a crash) starts above them; a clean stop does not jump', async () => {
    const dataDir = await tempDir();
    const server = await build({ dataDir, leaseBlock: 3 });
    let revision = 0;
    for (let n = 0; n < 12; n++) {
      revision = (await command(server, 'set_event_name', { name: `n-${n}` })).body.state.revision;
      // Blocks of 3: used up every few commands and written again before the revision went out.
      expect(await leaseOf(dataDir), `command ${n}`).toBeGreaterThan(revision);
    }
    // The files as a kill -9 now would leave them (the lock aside: this process holds it).
    const crashed = await tempDir();
    for (const name of await readdir(dataDir)) {
      if (name !== LOCK_FILE) await copyFile(join(dataDir, name), join(crashed, name));
    }
    const lease = await leaseOf(dataDir);
    await server.close();
    const again = await build({ dataDir: crashed, leaseBlock: 3 });
    expect((await get(again, '/api/state')).body.state.revision).toBe(lease);
    expect((await get(again, '/api/match')).body.match.eventName).toBe('n-11');
    // A clean stop saved the last revision's state: the next start goes on from that revision.
    const clean = await build({ dataDir, leaseBlock: 3 });
    expect((await get(clean, '/api/state')).body.state.revision).toBe(revision);
  });

  it('a lease that cannot be read: the start goes on a whole block above the saved revision, naming the file', async () => {
    const dataDir = await tempDir();
    const first = await build({ dataDir });
    const { revision } = (await command(first, 'set_event_name', { name: 'saved' })).body.state;
    await first.close();
    await writeFile(join(dataDir, LEASE_FILE), '{"startAt":');
    const logs: string[] = [];
    const server = await build({ dataDir, leaseBlock: 1000, logSink: (line) => logs.push(line) });
    expect((await get(server, '/api/state')).body.state.revision).toBe(revision + 1000);
    expect(
      logs.some((line) => line.includes(`revision lease ${join(dataDir, LEASE_FILE)} cannot be read`)),
    ).toBe(true);
  });
});
