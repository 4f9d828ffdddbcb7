import type { AnyStateMachine, InputFrom } from 'xstate';
import { setup } from 'xstate';
import { gameMachine } from './game.machine.ts';
import { gameRecorderMachine } from './game-recorder.machine.ts';
import type { HistoryInput } from './history.machine.ts';
import { historyMachine } from './history.machine.ts';
import type { HostInput } from './host.machine.ts';
import { hostMachine } from './host.machine.ts';
import type { MatchInput } from './match.machine.ts';
import { matchMachine } from './match.machine.ts';
import type { ObsSettings } from './obs-connection.machine.ts';
import { obsConnectionMachine } from './obs-connection.machine.ts';
import type { ObserverInput } from './observer.machine.ts';
import { observerMachine } from './observer.machine.ts';
import type { PanelInput } from './panel.machine.ts';
import { panelMachine } from './panel.machine.ts';
import type { PanelId } from './panels.ts';
import { PANELS } from './panels.ts';
import type { ProductionInput } from './production.machine.ts';
import { productionMachine } from './production.machine.ts';
import type { SceneWindowInput } from './scene-window.machine.ts';
import { sceneWindowMachine } from './scene-window.machine.ts';
import type { SubsystemKey } from './system-ids.ts';
import { SUBSYSTEM_KEYS, SYSTEM_ID } from './system-ids.ts';
import type { VetoRevealInput } from './veto-reveal.machine.ts';
import { vetoRevealMachine } from './veto-reveal.machine.ts';
import type { VetoSessionInput } from './veto-session.machine.ts';
import { vetoSessionMachine } from './veto-session.machine.ts';

/** Everything the actors start from: the saved state of the last run, or the defaults (the game's is not saved). */
export interface HudInput {
  host: HostInput;
  match: MatchInput;
  vetoSession: VetoSessionInput;
  vetoReveal: VetoRevealInput;
  sceneWindow: SceneWindowInput;
  panels: Record<PanelId, PanelInput>;
  production: ProductionInput;
  obs: ObsSettings;
  /** The automatic observer's settings and the game console's address. */
  observer: ObserverInput;
  /** The crew's undo history of the match and the veto. */
  history: HistoryInput;
  /** When the actors start (ms since the epoch): a saved panel timer that has run out starts hidden. */
  now: number;
}

/**
 * One actor of the roster: its machine, its diagram's name, its input from what the actors start
 * from, and whether the HUD state is built from it. What it saves and how it is restored is its
 * entry in src/persistence/saved-parts.ts (a schema is no business of a pure machine).
 */
export interface ActorDescriptor<M extends AnyStateMachine = AnyStateMachine> {
  machine: M;
  /** The kebab-case name of its diagram in visualizations/ (machines/catalog.ts). */
  diagram: string;
  input(context: HudInput): InputFrom<M>;
  /** The HUD state (src/core/views.ts, hudStateOf) reads it: the hub rebuilds that state when it changes. */
  hudState: boolean;
}

/** Ties an input to its machine's: an entry whose input is not what the machine takes fails to compile. */
const actor = <M extends AnyStateMachine>(
  machine: M,
  diagram: string,
  input: (context: HudInput) => InputFrom<M>,
  { hudState }: { hudState: boolean },
): ActorDescriptor<M> => ({ machine, diagram, input, hudState });

/**
 * The roster: one descriptor per actor that is not a panel (every panel runs panelMachine). With
 * SYSTEM_ID and PANELS it is the one list of the actors; the supervisor's children, the diagrams
 * (machines/catalog.ts), the service's typed access (src/core/hud-system.ts) and the saved state's
 * parts derive from it. The game's input follows the host's "receiving" (nothing of it is saved, and
 * after a rollback the frames that were arriving still count); the observer starts from the host's
 * subscription, and the host tells it every change (machines/host.machine.ts).
 */
export const ACTORS = {
  host: actor(hostMachine, 'host', (context) => context.host, { hudState: true }),
  match: actor(matchMachine, 'match', (context) => context.match, { hudState: true }),
  vetoSession: actor(vetoSessionMachine, 'veto-session', (context) => context.vetoSession, {
    hudState: false,
  }),
  vetoReveal: actor(vetoRevealMachine, 'veto-reveal', (context) => context.vetoReveal, { hudState: false }),
  sceneWindow: actor(sceneWindowMachine, 'scene-window', (context) => context.sceneWindow, {
    hudState: true,
  }),
  production: actor(productionMachine, 'production', (context) => context.production, { hudState: false }),
  obs: actor(obsConnectionMachine, 'obs-connection', (context) => context.obs, { hudState: true }),
  observer: actor(
    observerMachine,
    'observer',
    (context) => ({
      ...context.observer,
      subscriptionActive: context.host.subscriptionActive,
    }),
    { hudState: false },
  ),
  game: actor(gameMachine, 'game', (context) => ({ receiving: context.host.gameReceiving }), {
    hudState: false,
  }),
  // Nothing of it is saved: the recordings are files, listed again at start.
  recorder: actor(gameRecorderMachine, 'game-recorder', () => undefined, { hudState: false }),
  // The crew's undo history: its labels are in the HUD state.
  history: actor(historyMachine, 'history', (context) => context.history, { hudState: true }),
} as const satisfies Record<SubsystemKey, ActorDescriptor>;

/** The machine behind each actor that is not a panel. */
export const SUBSYSTEMS = Object.fromEntries(SUBSYSTEM_KEYS.map((key) => [key, ACTORS[key].machine])) as {
  [K in SubsystemKey]: (typeof ACTORS)[K]['machine'];
};

/**
 * The supervisor: one actor per stateful subsystem and one per panel, each reachable by its
 * systemId. It keeps the input it started from; the children own their state from then on.
 */
export const supervisorMachine = setup({
  types: {} as { context: HudInput; input: HudInput },
  actors: { ...SUBSYSTEMS, panel: panelMachine },
}).createMachine({
  id: 'hudAutomation',
  context: ({ input }) => input,
  description: 'Runs every subsystem for the whole life of the service',
  // Derived lists have a union `src`, which XState's per-actor typing cannot follow; `actor()` above
  // checks instead that each child gets the input its machine takes.
  invoke: [
    ...SUBSYSTEM_KEYS.map((key) => ({
      id: SYSTEM_ID[key],
      systemId: SYSTEM_ID[key],
      src: key,
      input: ({ context }: { context: HudInput }) => ACTORS[key].input(context),
    })),
    ...PANELS.map((panel) => ({
      id: panel.systemId,
      systemId: panel.systemId,
      src: 'panel' as const,
      input: ({ context }: { context: HudInput }) => ({ ...context.panels[panel.id], now: context.now }),
    })),
  ] as never,
});
