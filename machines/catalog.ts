import type { AnyStateMachine } from 'xstate';
import { panelMachine } from './panel.machine.ts';
import { ACTORS, supervisorMachine } from './supervisor.machine.ts';

/**
 * Every machine of the service, for the diagram generator and the inspector: the supervisor, each
 * actor of the roster under its diagram's name, and the machine every panel runs.
 */
export const machineCatalog: ReadonlyArray<{ name: string; machine: AnyStateMachine }> = [
  { name: 'supervisor', machine: supervisorMachine },
  ...Object.values(ACTORS).map(({ diagram, machine }) => ({
    name: diagram,
    machine: machine as AnyStateMachine,
  })),
  { name: 'panel', machine: panelMachine },
];
