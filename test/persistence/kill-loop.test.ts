import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/build.ts';
import type { CliProcess } from '../helpers/cli-process.ts';
import { post, startCli } from '../helpers/cli-process.ts';
import type { TestSocket } from '../helpers/ws-client.ts';
import { connect } from '../helpers/ws-client.ts';

// The bundle the global setup built (test/global-setup.ts) starts in a fraction of the time tsx
// takes: 50 starts stay within seconds.
const CYCLES = 50;

/** Each writer owns one field and writes an increasing counter into it, one write at a time. */
type Writer = 'eventName' | 'teams' | 'map1' | 'map2' | 'map3';
const WRITERS: readonly Writer[] = ['eventName', 'teams', 'map1', 'map2', 'map3'];
const counters = (): Record<Writer, number> => ({ eventName: 0, teams: 0, map1: 0, map2: 0, map3: 0 });

function valuesOf(match: any): Record<Writer, number> {
  const score = (index: number) => match.maps[index].scoreA + 100 * match.maps[index].scoreB;
  return {
    eventName: Number(match.eventName.slice('event-'.length)),
    teams: Number(match.teamA.name.slice('a-'.length)),
    map1: score(0),
    map2: score(1),
    map3: score(2),
  };
}

const mapResult = (map: number, n: number) => ({ map, scoreA: n % 100, scoreB: Math.floor(n / 100) });

/** Events of one revision come together; a subscriber must see every revision, in order. */
function revisionGaps(socket: TestSocket, from: number): string[] {
  const gaps: string[] = [];
  let last = from;
  for (const message of socket.received) {
    if (message.type !== 'event' || message.revision === last) continue;
    if (message.revision !== last + 1) gaps.push(`${last} -> ${message.revision}`);
    last = message.revision;
  }
  return gaps;
}

describe('kill -9 under load', () => {
  it(`${CYCLES} cycles, writers over HTTP and WebSocket: every acknowledged change survives`, async () => {
    const dataDir = await tempDir();
    const start = () => startCli(['--headless', '--no-obs', '--data-dir', dataDir, '--log-level', 'warn']);
    /** The highest value each writer sent, and the highest the server acknowledged. */
    const sent = counters();
    const acked = counters();
    /** The highest revision an answer reported: a restart must not go below it. */
    let ackedRevision = 0;
    let acknowledged = 0;
    let inFlightAtKill = 0;

    const setup = await start();
    const veto = await post(setup.httpUrl, 'veto_set', {
      boFormat: 'bo3',
      teamA: { name: 'a-0' },
      teamB: { name: 'b-0' },
      steps: [
        { type: 'ban', team: 'A', map: 'nuke' },
        { type: 'ban', team: 'B', map: 'mirage' },
        { type: 'pick', team: 'A', map: 'inferno' },
        { type: 'pick', team: 'B', map: 'ancient' },
        { type: 'ban', team: 'A', map: 'anubis' },
        { type: 'ban', team: 'B', map: 'dust2' },
        { type: 'decider', map: 'train' },
      ],
    });
    expect(veto.status).toBe(200);
    expect((await post(setup.httpUrl, 'set_event_name', { name: 'event-0' })).status).toBe(200);
    setup.child.kill('SIGKILL');
    await setup.exited;

    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const cli: CliProcess = await start();
      const sockets = [
        await connect(cli.httpUrl.replace('http', 'ws')),
        await connect(cli.httpUrl.replace('http', 'ws')),
      ];
      const hellos = await Promise.all(sockets.map((socket) => socket.next()));
      const restored = hellos[0].snapshot;
      const found = valuesOf(restored.match);
      for (const writer of WRITERS) {
        // At least the last acknowledged value; at most the one in flight when the kill came.
        expect(found[writer], `cycle ${cycle}, ${writer}`).toBeGreaterThanOrEqual(acked[writer]);
        expect(found[writer], `cycle ${cycle}, ${writer}`).toBeLessThanOrEqual(sent[writer]);
        if (found[writer] > acked[writer]) inFlightAtKill++;
        // The next writes go on from what was saved.
        sent[writer] = found[writer];
        acked[writer] = found[writer];
      }
      expect(restored.revision, `cycle ${cycle}: revision`).toBeGreaterThanOrEqual(ackedRevision);
      expect(cli.output()).not.toContain('moved aside');

      // Kill after a varying number of acknowledged changes, with the other writers' changes in flight.
      const target = acknowledged + 8 + (cycle % 5) * 6;
      let killed = false;
      const kill = () => {
        if (killed) return;
        killed = true;
        cli.child.kill('SIGKILL');
      };
      const overHttp =
        (action: string, payload: (n: number) => unknown) =>
        async (n: number): Promise<number | null> => {
          const { status, body } = await post(cli.httpUrl, action, payload(n));
          return status === 200 ? body.state.revision : null;
        };
      const overWs = (socket: TestSocket, action: string, payload: (n: number) => unknown) => {
        let id = 0;
        return async (n: number): Promise<number | null> => {
          const request = `${action}-${++id}`;
          socket.send({ type: 'trigger', id: request, action, payload: payload(n) });
          const result = await socket.waitForNew((m) => m.type === 'result' && m.id === request);
          return result.ok === true ? result.state.revision : null;
        };
      };
      const [first, second] = sockets as [TestSocket, TestSocket];
      const send: Record<Writer, (n: number) => Promise<number | null>> = {
        eventName: overHttp('set_event_name', (n) => ({ name: `event-${n}` })),
        teams: overHttp('set_teams', (n) => ({ teamA: { name: `a-${n}` }, teamB: { name: `b-${n}` } })),
        map1: overWs(first, 'set_map_result', (n) => mapResult(1, n)),
        map2: overWs(second, 'set_map_result', (n) => mapResult(2, n)),
        map3: overHttp('set_map_result', (n) => mapResult(3, n)),
      };
      const run = async (writer: Writer) => {
        while (!killed) {
          const n = ++sent[writer];
          let revision: number | null;
          try {
            revision = await send[writer](n);
          } catch {
            return; // the server is gone
          }
          if (revision === null) throw new Error(`${writer} ${n} failed while the server ran`);
          acked[writer] = n;
          ackedRevision = Math.max(ackedRevision, revision);
          if (++acknowledged >= target) kill();
        }
      };
      await Promise.all(WRITERS.map(run));
      kill();
      expect((await cli.exited).signal).toBe('SIGKILL');
      for (const [index, socket] of sockets.entries()) {
        expect(revisionGaps(socket, hellos[index].snapshot.revision), `cycle ${cycle}`).toEqual([]);
      }
    }

    const last = await start();
    try {
      const found = valuesOf(((await (await fetch(`${last.httpUrl}/api/match`)).json()) as any).match);
      for (const writer of WRITERS) expect(found[writer], writer).toBeGreaterThanOrEqual(acked[writer]);
    } finally {
      last.child.kill('SIGKILL');
      await last.exited;
    }
    expect(acknowledged).toBeGreaterThan(CYCLES * 8);
    console.log(
      `kill -9 loop: ${CYCLES} cycles, ${acknowledged} acknowledged changes, none lost; ` +
        `${inFlightAtKill} unacknowledged changes in flight at a kill were found saved`,
    );
  }, 240_000);
});
