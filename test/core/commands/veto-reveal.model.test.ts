/**
 * The veto-reveal model of test/machines/veto-reveal.test.ts walked again through the HTTP API of a
 * real listening server, over a veto of 3 steps: each operator command is a veto_reveal, each veto
 * that replaces the one on the HUD a veto_set (the same veto again, or another one); each state is
 * checked through the answers and GET /api/match (the steps revealed, and the series map with them).
 */
import { describe, expect, it } from 'vitest';
import { createTestModel } from 'xstate/graph';
import type { VetoRevealCommand, VetoRevealEvent } from '../../../machines/veto-reveal.machine.ts';
import { REVEAL_DEFAULTS, revealedCount, vetoRevealMachine } from '../../../machines/veto-reveal.machine.ts';
import type { VetoStep } from '../../../machines/veto-rules.ts';
import type { RunningServer } from '../../../src/server.ts';
import { build, command, get } from '../../helpers/build.ts';
import { listedAndHandled, pathName, reachedValues, valueKey, walk } from '../../helpers/model.ts';

const TOTAL = 3;
const MODES = ['next', 'prev', 'all', 'reset', 'instant', 'progressive'] as const;
type Replaced = Extract<VetoRevealEvent, { type: 'veto.reveal.vetoReplaced' }>;
type ModelEvent = VetoRevealCommand | Replaced;
const EVENTS: ModelEvent[] = [
  ...MODES.map((mode): VetoRevealCommand => ({ type: `veto.reveal.${mode}`, total: TOTAL })),
  { type: 'veto.reveal.vetoReplaced', sameSteps: false, waits: true },
  { type: 'veto.reveal.vetoReplaced', sameSteps: true, waits: true },
];

/** Two bo1 vetoes of 3 steps, ban, ban, decider: the series map is the decider, shown with the last step. */
const VETOES: VetoStep[][] = [
  [
    { type: 'ban', team: 'A', map: 'de_nuke' },
    { type: 'ban', team: 'B', map: 'de_mirage' },
    { type: 'decider', map: 'de_inferno' },
  ],
  [
    { type: 'ban', team: 'B', map: 'de_train' },
    { type: 'ban', team: 'A', map: 'de_ancient' },
    { type: 'decider', map: 'de_dust2' },
  ],
];
const TEAMS = { teamA: { name: 'Aurora' }, teamB: { name: 'The MongolZ' } };

// The walk starts after a veto_set on a new server: the veto waits, step by step with nothing revealed.
const model = createTestModel(vetoRevealMachine, {
  input: { ...REVEAL_DEFAULTS, instant: false, revealed: 0 },
  events: EVENTS,
  filterEvents: listedAndHandled(EVENTS),
});
const paths = model.getShortestPaths();

const describeModelEvent = (event: ModelEvent) =>
  event.type === 'veto.reveal.vetoReplaced'
    ? `veto_set ${event.sameSteps ? 'the same veto' : 'another veto'}`
    : event.type === 'veto.reveal.instant' || event.type === 'veto.reveal.progressive'
      ? `veto_reveal instant ${event.type === 'veto.reveal.instant'}`
      : `veto_reveal ${event.type.replace('veto.reveal.', '')}`;

/** The payload of veto_reveal for an operator command of the model. */
function revealPayload(event: VetoRevealCommand) {
  if (event.type === 'veto.reveal.instant') return { instant: true };
  if (event.type === 'veto.reveal.progressive') return { instant: false };
  return { mode: event.type.replace('veto.reveal.', '') };
}

describe('veto reveal over HTTP, model-based (a veto of 3 steps)', () => {
  it('walks both modes and every count, and a veto replaced in both', () => {
    expect(reachedValues(paths)).toEqual(new Set([valueKey('instant'), valueKey('progressive')]));
    const replaced = paths.flatMap((path) =>
      path.steps
        .filter((step) => step.event.type === 'veto.reveal.vetoReplaced')
        .map((step) => step.state.value),
    );
    expect(new Set(replaced)).toEqual(new Set(['progressive']));
    expect(paths.length).toBeLessThan(40);
  });

  for (const [index, path] of paths.entries()) {
    it(`path ${index}: ${pathName(path, (event) => describeModelEvent(event as ModelEvent))}`, async () => {
      let server: RunningServer | undefined;
      // The veto on the HUD: the walk starts with the first one (a new veto, which waits).
      let shown = 0;
      const setVeto = async (which: number) => {
        const answer = await command(server as RunningServer, 'veto_set', {
          boFormat: 'bo1',
          ...TEAMS,
          steps: VETOES[which],
        });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        shown = which;
      };
      await walk(path, {
        start: async () => {
          server = await build();
          await setVeto(0);
        },
        send: async (sent, _from, to) => {
          const event = sent as ModelEvent;
          if (event.type === 'veto.reveal.vetoReplaced') {
            await setVeto(event.sameSteps ? shown : 1 - shown);
            return;
          }
          const answer = await command(server as RunningServer, 'veto_reveal', revealPayload(event));
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          expect(answer.body.result).toEqual({
            revealed: revealedCount(to.context, TOTAL),
            total: TOTAL,
            instant: to.context.instant,
          });
        },
        check: async (expected) => {
          const { match } = (await get(server as RunningServer, '/api/match')).body;
          const revealed = revealedCount(expected.context, TOTAL);
          expect(match.veto.revealed).toBe(revealed);
          expect(match.veto.steps.map((step: VetoStep) => step.map)).toEqual(
            VETOES[shown]?.map((step) => step.map),
          );
          // The decider is the series map: shown with the last step only.
          expect(match.maps.map((entry: { revealed: boolean }) => entry.revealed)).toEqual([
            revealed === TOTAL,
          ]);
        },
      });
    });
  }
});
