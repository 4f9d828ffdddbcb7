import type { AnyStateMachine } from 'xstate';
import { gameMachine } from './game.machine.ts';
import { hostMachine } from './host.machine.ts';
import { matchMachine } from './match.machine.ts';
import { obsConnectionMachine } from './obs-connection.machine.ts';
import { observerMachine } from './observer.machine.ts';
import { panelMachine } from './panel.machine.ts';
import { productionMachine } from './production.machine.ts';
import { sceneWindowMachine } from './scene-window.machine.ts';
import { supervisorMachine } from './supervisor.machine.ts';
import { vetoRevealMachine } from './veto-reveal.machine.ts';
import { vetoSessionMachine } from './veto-session.machine.ts';

/** Every machine of the service, for the diagram generator and the inspector. */
export const machineCatalog: ReadonlyArray<{ name: string; machine: AnyStateMachine }> = [
  { name: 'supervisor', machine: supervisorMachine },
  { name: 'veto-session', machine: vetoSessionMachine },
  { name: 'veto-reveal', machine: vetoRevealMachine },
  { name: 'match', machine: matchMachine },
  { name: 'panel', machine: panelMachine },
  { name: 'scene-window', machine: sceneWindowMachine },
  { name: 'host', machine: hostMachine },
  { name: 'production', machine: productionMachine },
  { name: 'obs-connection', machine: obsConnectionMachine },
  { name: 'observer', machine: observerMachine },
  { name: 'game', machine: gameMachine },
];
