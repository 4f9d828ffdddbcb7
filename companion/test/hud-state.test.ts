/**
 * The snapshot the buttons read, kept current by events: revisions, resync, and the parts the
 * server does not send yet (the observer's link and suggestion) and team short tags when none is set.
 */
import { describe, expect, it } from 'vitest';
import { applyEvent, applyGame, emptyGameView } from '../src/hud-state.ts';
import type { Snapshot } from '../src/server-messages.ts';
import { variableValues } from '../src/variables.ts';

/** Every opt-in group of variables on: the tests read them all. */
const ALL_GROUPS = { variablesGame: true, variablesPlayers: true };

function snapshot(revision: number): Snapshot {
  return {
    revision,
    state: { revision, scoreboardVisible: false, senScene: null, roster: [{ slot: 7, name: 's1mple' }] },
    match: { eventName: '', boFormat: null, teamA: null, teamB: null, maps: [], seriesScore: { a: 0, b: 0 } },
    veto: { active: false },
    reveal: { revealed: 0, total: 0, instant: true },
    production: { smartObserver: { enabled: false, mode: 'suggest', cinematicEnabled: false } },
    activePresetId: null,
  };
}

const event = (revision: number, name: string, data: unknown) => ({
  type: 'event' as const,
  event: name,
  revision,
  data,
});

describe('events', () => {
  it('apply the next revision and every event that shares it', () => {
    const first = applyEvent(snapshot(4), event(5, 'hud.state', { scoreboardVisible: true }));
    expect(first.outcome).toBe('applied');
    const second = applyEvent(first.snapshot, event(5, 'hud.state', { senScene: 'versus' }));
    expect(second.snapshot.state).toMatchObject({ revision: 5, scoreboardVisible: true, senScene: 'versus' });
  });

  it('report a gap when a revision was skipped, and leave the snapshot alone', () => {
    const before = snapshot(4);
    const { snapshot: after, outcome } = applyEvent(
      before,
      event(6, 'hud.state', { scoreboardVisible: true }),
    );
    expect(outcome).toBe('gap');
    expect(after).toBe(before);
  });

  it('ignore an event older than the snapshot (it is already in it)', () => {
    expect(applyEvent(snapshot(9), event(8, 'hud.state', { scoreboardVisible: true })).outcome).toBe('stale');
  });
});

describe('parts the server does not send yet', () => {
  const game = emptyGameView();

  it('show empty observer link and suggestion, and names for short tags, until they exist', () => {
    const values = variableValues(snapshot(1), game, 'ok', ALL_GROUPS);
    expect(values).toMatchObject({
      observer_link: '',
      observer_suggestion: '',
      observer_strategy: '',
      observer_camera: '',
      team_a_short: 'Team A',
    });
  });

  it('read the observer event and team tags once the server sends them', () => {
    const withTeams = applyEvent(
      snapshot(1),
      event(2, 'match', {
        eventName: 'Major',
        boFormat: 'bo3',
        teamA: { name: 'Natus Vincere', tag: 'NAVI' },
        teamB: { name: 'G2 Esports', tag: 'G2' },
        maps: [],
        seriesScore: { a: 0, b: 0 },
      }),
    ).snapshot;
    const withObserver = applyEvent(
      withTeams,
      event(3, 'observer', {
        enabled: true,
        mode: 'suggest',
        cinematicEnabled: false,
        subscriptionActive: true,
        link: { connection: 'connected', address: '127.0.0.1:3000', reason: null },
        suggestion: { slot: 4, name: 'm0NESY', steamid: '76561198074762801', reason: 'clutch', since: 1 },
        lastCut: null,
        cameraFollows: 'following',
        camera: { strategy: 'name_lock', source: 'proven', exhausted: false, text: 'The camera follows' },
      }),
    ).snapshot;
    expect(variableValues(withObserver, game, 'ok', ALL_GROUPS)).toMatchObject({
      team_a_short: 'NAVI',
      team_b_short: 'G2',
      observer_link: 'connected',
      observer_suggestion: 'm0NESY',
      observer_suggestion_slot: 4,
      observer_mode: 'suggest',
      observer_strategy: 'name_lock',
      observer_camera: 'following',
    });
    // Every strategy failed: the camera does not follow, and the module says which none.
    const exhausted = applyEvent(
      withObserver,
      event(4, 'observer', {
        ...withObserver.observer,
        cameraFollows: 'ignored',
        camera: {
          strategy: null,
          source: 'probing',
          exhausted: true,
          text: 'The game did not follow any cut',
        },
      }),
    ).snapshot;
    expect(variableValues(exhausted, game, 'ok', ALL_GROUPS)).toMatchObject({
      observer_strategy: 'none',
      observer_camera: 'ignored',
    });
  });
});

describe('the observed player', () => {
  it('is named from the game frames, or from the roster by slot', () => {
    let view = applyGame(emptyGameView(), {
      type: 'game',
      full: true,
      live: { observed: { steamid: '765', slot: 7 }, players: { '765': { name: 's1mple' } } },
    });
    expect(variableValues(snapshot(1), view, 'ok', ALL_GROUPS)).toMatchObject({
      observed_name: 's1mple',
      observed_slot: 7,
    });
    view = applyGame(view, { type: 'game', full: false, live: { observed: { steamid: '999', slot: 7 } } });
    expect(variableValues(snapshot(1), view, 'ok', ALL_GROUPS).observed_name).toBe('s1mple');
    view = applyGame(view, { type: 'game', full: false, live: { observed: null } });
    expect(variableValues(snapshot(1), view, 'ok', ALL_GROUPS)).toMatchObject({
      observed_name: '',
      observed_slot: '',
    });
  });
});
