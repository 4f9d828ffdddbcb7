/**
 * The sides of team A and team B, model-based through the transports: the match machine's model
 * (xstate/graph) walked against a running server, where the operator's swap is POST swap_sides and
 * the side the game names is a real frame whose team names match team A and team B.
 */
import { describe, expect, it } from 'vitest';
import { createTestModel } from 'xstate/graph';
import type { GameSide } from '../../machines/game-sides.ts';
import type { MatchEvent, MatchInput } from '../../machines/match.machine.ts';
import { MATCH_DEFAULTS, matchMachine } from '../../machines/match.machine.ts';
import type { RunningServer } from '../../src/server.ts';
import { build, command, get } from '../helpers/build.ts';
import { FAZE_NAVI, fixture, postFrame, toCs2, withToken } from '../helpers/gsi.ts';
import { listedAndHandled, pathName, walk } from '../helpers/model.ts';

const EVENTS: MatchEvent[] = [
  { type: 'match.sides.swap' },
  { type: 'match.sides.set', teamASide: 'T' },
  { type: 'match.sides.set', teamASide: 'CT' },
];
const TEAM_A = 'FaZe Clan';
const TEAM_B = 'Natus Vincere';

const describeEvent = (event: MatchEvent) =>
  event.type === 'match.sides.set' ? `a frame with team A on ${event.teamASide}` : 'swap_sides';

/** A captured frame (FaZe on CT) with the team names placed so that team A plays `side`. */
async function frameWithTeamAOn(server: RunningServer, side: GameSide) {
  const frame = toCs2(await fixture(FAZE_NAVI));
  frame.map.team_ct.name = side === 'CT' ? TEAM_A : TEAM_B;
  frame.map.team_t.name = side === 'CT' ? TEAM_B : TEAM_A;
  return withToken(frame, server.service.game.token);
}

describe.each<GameSide>(['CT', 'T'])('sides from team A on %s, model-based over HTTP', (start) => {
  const input: MatchInput = { ...structuredClone(MATCH_DEFAULTS), teamASide: start };
  const paths = createTestModel(matchMachine, {
    input,
    events: EVENTS,
    filterEvents: listedAndHandled(EVENTS),
  })
    .getSimplePaths()
    .filter((path) => path.steps.length > 1);

  it('walks a swap and a frame naming the other side', () => {
    expect(paths.map((path) => path.steps.at(-1)?.event.type).sort()).toEqual([
      'match.sides.set',
      'match.sides.swap',
    ]);
  });

  for (const [index, path] of paths.entries()) {
    it(`path ${index}: ${pathName(path, describeEvent)}`, async () => {
      let server: RunningServer | undefined;
      const running = () => server as RunningServer;
      await walk(path, {
        start: async () => {
          server = await build();
          await command(server, 'set_teams', { teamA: { name: TEAM_A }, teamB: { name: TEAM_B } });
          if (start === 'T') await command(server, 'swap_sides');
        },
        send: async (event) => {
          const before = (await get(running(), '/api/state')).body.state.revision;
          if (event.type === 'match.sides.swap') {
            const answer = await command(running(), 'swap_sides');
            expect(answer.status).toBe(200);
          } else if (event.type === 'match.sides.set') {
            const answer = await postFrame(
              running().applicationPort,
              await frameWithTeamAOn(running(), event.teamASide),
            );
            expect(answer.status).toBe(200);
          }
          // A change of sides is a change of the HUD state: a revision.
          expect((await get(running(), '/api/state')).body.state.revision).toBeGreaterThan(before);
        },
        check: async (expected) => {
          const { sides } = (await get(running(), '/api/state')).body.state;
          const teamA = expected.context.teamASide;
          expect(sides).toEqual({ teamA, teamB: teamA === 'CT' ? 'T' : 'CT' });
        },
      });
    });
  }
});
