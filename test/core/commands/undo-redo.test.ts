/**
 * Issue 33, undo and redo over the real transports: every change of the match and the veto is taken
 * back and made again, each in one revision, and the match, the veto session and the reveal come back
 * exactly (deep-equal) as a client saw them.
 */
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server.ts';
import { build, command, get, ok } from '../../helpers/build.ts';
import { FURIA_NAVI, hltvUrl, serviceWithHltv, VITALITY_FAZE } from '../../helpers/hltv-stand-in.ts';
import { BO3_ACTIVE_DUTY } from '../../helpers/vetoes.ts';
import { connect } from '../../helpers/ws-client.ts';

/** What a client sees of the match and the veto: the match summary (veto and reveal in it), the session, the sides. */
async function seen(server: RunningServer) {
  const [match, veto, state] = await Promise.all([
    get(server, '/api/match'),
    get(server, '/api/veto'),
    get(server, '/api/state'),
  ]);
  return {
    match: match.body.match,
    veto: veto.body.veto,
    sides: state.body.state.sides,
    revision: state.body.state.revision as number,
    history: state.body.state.history as { undo: Array<{ label: string }>; redo: Array<{ label: string }> },
  };
}
const view = ({ match, veto, sides }: Awaited<ReturnType<typeof seen>>) => ({ match, veto, sides });

const TEAMS = { teamA: { name: 'Natus Vincere', tag: 'NAVI' }, teamB: { name: 'FaZe Clan', tag: 'FAZE' } };

/** Every kind of change the history records, in order, with the label it reads as. */
const CHANGES: Array<[string, unknown, string]> = [
  ['set_teams', { ...TEAMS, boFormat: 'bo3' }, 'Teams: Natus Vincere vs FaZe Clan (bo3)'],
  [
    'veto_set',
    { boFormat: 'bo3', ...TEAMS, steps: BO3_ACTIVE_DUTY },
    'Veto set: Natus Vincere vs FaZe Clan (bo3)',
  ],
  ['set_map_result', { map: 1, scoreA: 13, scoreB: 9, finished: true }, 'Map 1 Dust II: 13–9, finished'],
  ['swap_sides', undefined, 'Swap sides: Natus Vincere on T'],
  ['set_event_name', { name: 'IEM Cologne 2026' }, 'Event name: IEM Cologne 2026'],
  ['set_team_format', { format: '5v5' }, 'Team format: 5v5'],
  [
    'veto_start',
    { boFormat: 'bo1', ...TEAMS, mapPool: ['mirage', 'nuke', 'inferno'] },
    'Veto started: Natus Vincere vs FaZe Clan (bo1)',
  ],
  ['veto_cancel', undefined, 'Veto cancelled'],
  ['reset_veto', undefined, 'Reset veto and maps'],
];

describe('undo and redo over HTTP', () => {
  it('takes back each change in turn, one revision each, to the exact earlier match and veto; redo makes them again', async () => {
    const server = await build();
    const states = [await seen(server)];
    for (const [action, payload] of CHANGES) {
      await ok(server, action, payload);
      states.push(await seen(server));
    }
    const last = states.at(-1) as Awaited<ReturnType<typeof seen>>;
    // Most recent first, in words.
    expect(last.history.undo.map((entry) => entry.label)).toEqual(
      CHANGES.map(([, , label]) => label).reverse(),
    );
    expect(last.history.redo).toEqual([]);

    for (let i = CHANGES.length - 1; i >= 0; i--) {
      const before = await seen(server);
      const answer = await ok(server, 'undo');
      expect(answer.result.undone.label).toBe(CHANGES[i]?.[2]);
      expect(answer.state.revision).toBe(before.revision + 1);
      const after = await seen(server);
      expect(view(after)).toEqual(view(states[i] as Awaited<ReturnType<typeof seen>>));
      expect(after.revision).toBe(before.revision + 1);
    }
    const nothing = await command(server, 'undo');
    expect(nothing.status).toBe(409);
    expect(nothing.body).toMatchObject({ ok: false, error: 'conflict' });
    expect(nothing.body.message).toMatch(/nothing to undo/);

    for (let i = 1; i < states.length; i++) {
      const answer = await ok(server, 'redo');
      expect(answer.result.redone.label).toBe(CHANGES[i - 1]?.[2]);
      expect(view(await seen(server))).toEqual(view(states[i] as Awaited<ReturnType<typeof seen>>));
    }
    expect((await command(server, 'redo')).status).toBe(409);
  });

  it('a new change after an undo empties redo; a change of nothing is not recorded', async () => {
    const server = await build();
    await ok(server, 'set_event_name', { name: 'One' });
    await ok(server, 'set_event_name', { name: 'Two' });
    await ok(server, 'undo');
    expect((await seen(server)).history.redo.map((entry) => entry.label)).toEqual(['Event name: Two']);
    await ok(server, 'set_event_name', { name: 'Three' });
    await ok(server, 'set_event_name', { name: 'Three' });
    const { history, match } = await seen(server);
    expect(history.undo.map((entry) => entry.label)).toEqual(['Event name: Three', 'Event name: One']);
    expect(history.redo).toEqual([]);
    expect(match.eventName).toBe('Three');
  });

  it('keeps the last 20 changes each way: the oldest goes first', async () => {
    const server = await build();
    for (let n = 1; n <= 23; n++) await ok(server, 'set_event_name', { name: `Event ${n}` });
    const { history } = await seen(server);
    expect(history.undo).toHaveLength(20);
    expect(history.undo[0]?.label).toBe('Event name: Event 23');
    expect(history.undo[19]?.label).toBe('Event name: Event 4');
  });

  it('an undo leaves what the change did not touch: the sides set since stay', async () => {
    const server = await build();
    await ok(server, 'set_event_name', { name: 'Before' });
    await ok(server, 'set_event_name', { name: 'After' });
    // swap_sides is a change too: undo it first, then the event name only goes back.
    await ok(server, 'swap_sides');
    const swapped = (await seen(server)).sides;
    await ok(server, 'undo');
    await ok(server, 'redo');
    expect((await seen(server)).sides).toEqual(swapped);
  });
});

describe('undo of an import over HTTP', () => {
  it('an import that replaced finished results reads so in the history, and undo brings the results back exactly', async () => {
    const server = await serviceWithHltv([FURIA_NAVI, VITALITY_FAZE]);
    await ok(server, 'set_teams', {
      teamA: { name: 'Natus Vincere', tag: 'NAVI' },
      teamB: { name: 'FURIA' },
    });
    await ok(server, 'import_match_veto', { url: hltvUrl(FURIA_NAVI) });
    await ok(server, 'set_map_result', { map: 1, scoreA: 13, scoreB: 9, finished: true });
    await ok(server, 'set_map_result', { map: 2, scoreA: 11, scoreB: 13, finished: true });
    const played = await seen(server);

    const wrong = await ok(server, 'import_match_veto', { url: hltvUrl(VITALITY_FAZE) });
    expect(wrong.result.changes.lostResults).toHaveLength(2);
    const after = await seen(server);
    expect(after.history.undo[0]?.label).toBe('Import: Vitality vs FaZe (replaced 2 results)');
    // The import and its history entry are one revision.
    expect(after.revision).toBe(played.revision + 1);

    expect((await ok(server, 'undo')).result.undone.label).toBe(
      'Import: Vitality vs FaZe (replaced 2 results)',
    );
    expect(view(await seen(server))).toEqual(view(played));
    expect((await seen(server)).match.seriesScore).toEqual({ a: 1, b: 1 });
    await ok(server, 'redo');
    expect(view(await seen(server))).toEqual(view(after));
  });
});

describe('undo and redo over the WebSocket', () => {
  it('a trigger undoes and redoes with the same answers, and every client hears the history in the state', async () => {
    const server = await build();
    const before = await seen(server);
    await ok(server, 'veto_set', { boFormat: 'bo3', ...TEAMS, steps: BO3_ACTIVE_DUTY });
    const set = await seen(server);
    const client = await connect(server.wsUrl);
    await client.next(); // hello
    client.send({ type: 'trigger', id: 'undo-1', action: 'undo' });
    const result = await client.waitFor((message) => message.type === 'result' && message.id === 'undo-1');
    expect(result).toMatchObject({
      ok: true,
      action: 'undo',
      state: {
        revision: set.revision + 1,
        history: { undo: [], redo: [{ label: 'Veto set: Natus Vincere vs FaZe Clan (bo3)' }] },
      },
      result: { undone: { label: 'Veto set: Natus Vincere vs FaZe Clan (bo3)' } },
    });
    const pushed = await client.waitFor(
      (message) =>
        message.type === 'event' && message.event === 'hud.state' && message.data.history !== undefined,
    );
    expect(pushed.data.history.redo).toHaveLength(1);
    expect(view(await seen(server))).toEqual(view(before));
    client.send({ type: 'trigger', id: 'redo-1', action: 'redo' });
    await client.waitFor((message) => message.type === 'result' && message.id === 'redo-1' && message.ok);
    expect(view(await seen(server))).toEqual(view(set));
    client.close();
  });
});
