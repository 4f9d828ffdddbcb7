/**
 * The Machines view draws what the machines declare, never a copy: every state of every machine of
 * the roster (walked here from `machine.root` itself) gets a box inside its parent's, every
 * transition an arrow or a line in its state; a machine that gains a state gets a box for it, and a
 * machine the layout cannot draw fails instead of leaving the state out.
 */
import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, type AnyStateNode, and, createMachine, not } from 'xstate';
import { panelMachine } from '../../machines/panel.machine.ts';
import { SUBSYSTEMS } from '../../machines/supervisor.machine.ts';
import { vetoSessionMachine } from '../../machines/veto-session.machine.ts';
import {
  CHAR_WIDTH,
  LINE_HEIGHT,
  layoutStatechart,
} from '../../src/app-server/machines-view/chart-layout.ts';
import { statechartOf } from '../../src/inspector/statechart-graph.ts';

function* nodes(node: AnyStateNode): Generator<AnyStateNode> {
  yield node;
  for (const child of Object.values(node.states)) yield* nodes(child);
}

const inside = (inner: { x: number; y: number; width: number; height: number }, outer: typeof inner) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5;

async function expectFullyDrawn(machine: AnyStateMachine): Promise<void> {
  const layout = await layoutStatechart(statechartOf(machine));
  const boxes = new Map(layout.states.map((box) => [box.path, box]));
  for (const node of nodes(machine.root)) {
    const path = node.path.join('.');
    const box = boxes.get(path);
    expect(box, `${machine.id}: state "${path}" has no box`).toBeDefined();
    if (!box) continue;
    expect(box.width * box.height, `${machine.id}: "${path}" is drawn empty`).toBeGreaterThan(0);
    if (node.parent) {
      const parent = boxes.get(node.parent.path.join('.'));
      expect(parent && inside(box, parent), `${machine.id}: "${path}" lies outside its parent`).toBe(true);
    }
    if (node.parent?.type === 'parallel')
      expect(box.region, `${machine.id}: "${path}" is a region`).toBe(true);
    // Each transition of the state: an arrow from it, or a line in its box (carrying its id).
    const transitions = [...node.transitions.values()].flat().concat(node.always ?? []);
    for (const transition of transitions) {
      const drawn =
        layout.edges.some((edge) => edge.source === path && edge.points.length >= 2) ||
        box.lines.some((line) => line.transition !== null);
      expect(drawn, `${machine.id}: a transition of "${path}" on ${transition.eventType} is not drawn`).toBe(
        true,
      );
    }
  }
  expect(layout.states.length).toBe([...nodes(machine.root)].length);
  // Every arrow's words readable on their own: no two labels overlap or sit closer than three characters.
  const labels = layout.edges.flatMap((edge) =>
    edge.labelAt
      ? [{ text: edge.label, ...edge.labelAt, width: edge.label.length * CHAR_WIDTH, height: LINE_HEIGHT }]
      : [],
  );
  const GAP = 3 * CHAR_WIDTH;
  for (const [i, a] of labels.entries()) {
    for (const b of labels.slice(i + 1)) {
      const apart =
        a.x + a.width + GAP <= b.x ||
        b.x + b.width + GAP <= a.x ||
        a.y + a.height <= b.y ||
        b.y + b.height <= a.y;
      expect(apart, `${machine.id}: "${a.text}" and "${b.text}" run together`).toBe(true);
    }
  }
}

describe('the Machines view chart layout', () => {
  it.each(Object.entries({ ...SUBSYSTEMS, panel: panelMachine }))(
    'draws every state and transition of the %s machine',
    async (_name, machine) => {
      await expectFullyDrawn(machine as AnyStateMachine);
    },
  );

  it('draws a state that a machine gains, with its arrow, guard and actions', async () => {
    const config = vetoSessionMachine.config as Record<string, any>;
    const session = config.states.session;
    const grown = createMachine({
      ...config,
      states: {
        ...config.states,
        session: {
          ...session,
          states: {
            ...session.states,
            paused: { description: 'A state the view has never seen', on: { 'veto.resume': 'none' } },
            none: {
              ...session.states.none,
              on: {
                ...session.states.none.on,
                'veto.pause': { target: 'paused', guard: 'canPause', actions: 'notePause' },
              },
            },
          },
        },
      },
    } as any);
    await expectFullyDrawn(grown);
    const layout = await layoutStatechart(statechartOf(grown));
    expect(layout.states.find((box) => box.path === 'session.paused')?.lines[0]?.text).toBe(
      'A state the view has never seen',
    );
    expect(layout.edges.find((edge) => edge.target === 'session.paused')?.label).toBe(
      'veto.pause [canPause] / notePause',
    );
  });

  it('draws history, final, delayed and eventless transitions and composite guards', async () => {
    const machine = createMachine({
      id: 'kinds',
      initial: 'a',
      states: {
        a: {
          initial: 'a1',
          states: {
            a1: { after: { 500: 'a2' } },
            a2: { type: 'final' },
            hist: { type: 'history', target: 'a1' },
          },
          onDone: 'b',
        },
        b: {
          type: 'parallel',
          states: {
            left: {
              initial: 'x',
              states: { x: { always: { target: 'y', guard: and(['g1', not('g2')]) } }, y: {} },
            },
            right: { initial: 'z', states: { z: { on: { poke: { actions: 'note' } } } } },
          },
          on: { back: 'a.hist' },
        },
      },
    });
    await expectFullyDrawn(machine);
    const layout = await layoutStatechart(statechartOf(machine));
    expect(layout.edges.map((edge) => edge.label)).toEqual(
      expect.arrayContaining(['after 500ms', '[g1 and not g2]', 'done', 'back']),
    );
    expect(layout.states.find((box) => box.path === 'b.right.z')?.lines).toContainEqual({
      text: 'on poke / note',
      transition: 'b.right.z|poke|0',
    });
  });
});
