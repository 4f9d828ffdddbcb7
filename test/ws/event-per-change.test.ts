/**
 * The hub computes a view again only when what it is computed from changed, and compares the result
 * with the last one by content: a command sends the events of what it changed, no more and no less.
 */
import { describe, expect, it } from 'vitest';
import { RECENT_REQUESTS, RecentRequests } from '../../src/access/recent-requests.ts';
import { createNoticeBus } from '../../src/core/notices.ts';
import { build, command } from '../helpers/build.ts';
import { BO3_ACTIVE_DUTY } from '../helpers/vetoes.ts';
import type { TestSocket } from '../helpers/ws-client.ts';
import { connect } from '../helpers/ws-client.ts';

const TEAMS = { teamA: { name: 'Alpha' }, teamB: { name: 'Bravo' } };

/** The events a command sent: everything before the result of a marker trigger sent after it. */
async function eventsOf(client: TestSocket, run: () => Promise<unknown>, marker: string): Promise<string[]> {
  await run();
  client.send({ type: 'trigger', id: marker, action: 'get_match' });
  const events: string[] = [];
  for (;;) {
    const message = await client.next();
    if (message.type === 'result' && message.id === marker) return events;
    if (message.type === 'event') events.push(message.event);
  }
}

describe('events per change (over HTTP commands and the WebSocket)', () => {
  it('a map result sends the match (and the HUD state with its undo history); the same result again sends nothing and keeps the revision', async () => {
    const server = await build();
    await command(server, 'veto_set', { boFormat: 'bo3', ...TEAMS, steps: BO3_ACTIVE_DUTY });
    const client = await connect(server.wsUrl);
    await client.next(); // hello

    const result = { map: 1, scoreA: 13, scoreB: 7 };
    // The HUD state carries the undo history, which the change joined (docs/api.md, "Undo and redo").
    expect(await eventsOf(client, () => command(server, 'set_map_result', result), 'm1')).toEqual([
      'hud.state',
      'match',
    ]);
    const revision = (await command(server, 'get_match')).body.state.revision;
    expect(await eventsOf(client, () => command(server, 'set_map_result', result), 'm2')).toEqual([]);
    expect((await command(server, 'get_match')).body.state.revision).toBe(revision);

    // Renaming the teams changes the match; with no veto session running, its view does not change.
    const renamed = { teamA: { name: 'Alpha 2' }, teamB: { name: 'Bravo' } };
    expect(await eventsOf(client, () => command(server, 'set_teams', renamed), 'm3')).toEqual([
      'hud.state',
      'match',
    ]);

    // With a session running, the session's view shows the teams: it changes with them.
    const started = eventsOf(
      client,
      async () =>
        expect((await command(server, 'veto_start', { boFormat: 'bo3', ...renamed })).status).toBe(200),
      'm4',
    );
    expect(await started).toContain('veto.session');
    const again = { teamA: { name: 'Alpha 3' }, teamB: { name: 'Bravo' } };
    expect(await eventsOf(client, () => command(server, 'set_teams', again), 'm5')).toEqual([
      'hud.state',
      'match',
      'veto.session',
    ]);
    client.close();
  });

  it('a panel toggle sends the HUD state alone, with the flag that changed', async () => {
    const server = await build();
    const client = await connect(server.wsUrl);
    await client.next(); // hello
    await command(server, 'toggle_scoreboard');
    const event = await client.next();
    expect(event).toMatchObject({ event: 'hud.state', data: { scoreboardVisible: true } });
    expect(Object.keys(event.data)).toEqual(['scoreboardVisible']);
    expect(await eventsOf(client, () => command(server, 'toggle_scoreboard'), 't1')).toEqual(['hud.state']);
    client.close();
  });
});

describe('RecentRequests', () => {
  it('keeps the last RECENT_REQUESTS records, newest first, each with the time it was added', () => {
    const notices = createNoticeBus();
    const recent = new RecentRequests(notices);
    const seen: number[] = [];
    notices.on('request.recorded', ({ record, at }) => {
      seen.push(record.status);
      expect(at).toBeGreaterThan(0);
    });
    const before = Date.now();
    for (let n = 1; n <= RECENT_REQUESTS + 5; n++) {
      recent.add({ transport: 'http', request: `GET /${n}`, status: n, address: '127.0.0.1' });
    }
    const list = recent.list();
    expect(list).toHaveLength(RECENT_REQUESTS);
    expect(list[0]).toMatchObject({ request: `GET /${RECENT_REQUESTS + 5}`, status: RECENT_REQUESTS + 5 });
    expect(list.at(-1)).toMatchObject({ request: 'GET /6', status: 6 });
    expect(Date.parse(list[0]?.time ?? '')).toBeGreaterThanOrEqual(before - 1);
    expect(seen).toHaveLength(RECENT_REQUESTS + 5);
  });

  it('lists fewer records, newest first, before the ring is full', () => {
    const notices = createNoticeBus();
    const recent = new RecentRequests(notices);
    for (const n of [1, 2, 3])
      recent.add({ transport: 'ws', request: `trigger ${n}`, status: 200, address: '::1' });
    expect(recent.list().map((record) => record.request)).toEqual(['trigger 3', 'trigger 2', 'trigger 1']);
  });
});
