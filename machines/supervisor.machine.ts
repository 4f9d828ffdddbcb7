import { setup } from 'xstate';
import type { HostInput } from './host.machine.ts';
import { hostMachine } from './host.machine.ts';
import type { MatchInput } from './match.machine.ts';
import { matchMachine } from './match.machine.ts';
import type { ObsSettings } from './obs-connection.machine.ts';
import { obsConnectionMachine } from './obs-connection.machine.ts';
import type { PanelInput } from './panel.machine.ts';
import { panelMachine } from './panel.machine.ts';
import type { ProductionInput } from './production.machine.ts';
import { productionMachine } from './production.machine.ts';
import type { SceneWindowInput } from './scene-window.machine.ts';
import { sceneWindowMachine } from './scene-window.machine.ts';
import type { PanelId } from './system-ids.ts';
import { SYSTEM_ID } from './system-ids.ts';
import type { VetoRevealInput } from './veto-reveal.machine.ts';
import { vetoRevealMachine } from './veto-reveal.machine.ts';
import type { VetoSessionInput } from './veto-session.machine.ts';
import { vetoSessionMachine } from './veto-session.machine.ts';

/** Everything the actors start from: the saved state of the last run, or the defaults. */
export interface HudInput {
  host: HostInput;
  match: MatchInput;
  vetoSession: VetoSessionInput;
  vetoReveal: VetoRevealInput;
  sceneWindow: SceneWindowInput;
  panels: Record<PanelId, PanelInput>;
  production: ProductionInput;
  obs: ObsSettings;
  /** When the actors start (ms since the epoch): a saved panel timer that has run out starts hidden. */
  now: number;
}

const panelStart =
  (panel: PanelId) =>
  ({ context }: { context: HudInput }) => ({ ...context.panels[panel], now: context.now });

/**
 * The supervisor: one actor per stateful subsystem, each reachable by its systemId. It keeps the
 * input it started from; the children own their state from then on.
 */
export const supervisorMachine = setup({
  types: {} as { context: HudInput; input: HudInput },
  actors: {
    host: hostMachine,
    match: matchMachine,
    vetoSession: vetoSessionMachine,
    vetoReveal: vetoRevealMachine,
    sceneWindow: sceneWindowMachine,
    panel: panelMachine,
    production: productionMachine,
    obsConnection: obsConnectionMachine,
  },
}).createMachine({
  id: 'hudAutomation',
  context: ({ input }) => input,
  description: 'Runs every subsystem for the whole life of the service',
  invoke: [
    { id: SYSTEM_ID.host, systemId: SYSTEM_ID.host, src: 'host', input: ({ context }) => context.host },
    { id: SYSTEM_ID.match, systemId: SYSTEM_ID.match, src: 'match', input: ({ context }) => context.match },
    {
      id: SYSTEM_ID.vetoSession,
      systemId: SYSTEM_ID.vetoSession,
      src: 'vetoSession',
      input: ({ context }) => context.vetoSession,
    },
    {
      id: SYSTEM_ID.vetoReveal,
      systemId: SYSTEM_ID.vetoReveal,
      src: 'vetoReveal',
      input: ({ context }) => context.vetoReveal,
    },
    {
      id: SYSTEM_ID.sceneWindow,
      systemId: SYSTEM_ID.sceneWindow,
      src: 'sceneWindow',
      input: ({ context }) => context.sceneWindow,
    },
    {
      id: SYSTEM_ID.scoreboard,
      systemId: SYSTEM_ID.scoreboard,
      src: 'panel',
      input: panelStart('scoreboard'),
    },
    {
      id: SYSTEM_ID.vetoPanel,
      systemId: SYSTEM_ID.vetoPanel,
      src: 'panel',
      input: panelStart('vetoPanel'),
    },
    {
      id: SYSTEM_ID.stats,
      systemId: SYSTEM_ID.stats,
      src: 'panel',
      input: panelStart('stats'),
    },
    {
      id: SYSTEM_ID.overlay,
      systemId: SYSTEM_ID.overlay,
      src: 'panel',
      input: panelStart('overlay'),
    },
    {
      id: SYSTEM_ID.production,
      systemId: SYSTEM_ID.production,
      src: 'production',
      input: ({ context }) => context.production,
    },
    { id: SYSTEM_ID.obs, systemId: SYSTEM_ID.obs, src: 'obsConnection', input: ({ context }) => context.obs },
  ],
});
