/**
 * What the module knows of the server: the `hello` snapshot, kept current by the WebSocket events
 * (docs/websocket.md). Pure functions: the connection feeds messages in, feedbacks and variables
 * read the result.
 *
 * The shapes below are only the fields the module reads. They are written here because the module
 * is a separate package that talks to the server through the wire alone; the tests check them
 * against the real server on every run.
 */

export interface Team {
  name: string;
  /** Its short tag (NAVI, G2), when the operator set one. */
  tag?: string;
}

export interface SeriesMap {
  number: number;
  map: string;
  label: string;
  finished: boolean;
  scoreA: number;
  scoreB: number;
  winner: string | null;
}

export interface Match {
  eventName: string;
  boFormat: string | null;
  teamA: Team | null;
  teamB: Team | null;
  maps: SeriesMap[];
  seriesScore: { a: number; b: number };
}

export interface VetoStep {
  type: 'ban' | 'pick' | 'decider';
  team?: 'A' | 'B' | null;
}

export interface VetoStatus {
  active: boolean;
  complete?: boolean;
  nextStep?: VetoStep | null;
  remainingMaps?: string[];
  teamA?: Team;
  teamB?: Team;
}

export interface HudState {
  revision: number;
  scoreboardVisible?: boolean;
  vetoVisible?: boolean;
  statsVisible?: boolean;
  hudWindowOpen?: boolean;
  mainWindowOpen?: boolean;
  senScene?: string | null;
  obs?: { connection: string; replayBufferActive: boolean };
  roster?: Array<{ slot: number; name: string }>;
}

export interface SmartObserver {
  enabled: boolean;
  mode: string;
  cinematicEnabled: boolean;
}

export type ObserverLinkState = 'connecting' | 'connected' | 'disconnected' | 'off';

/** The smart observer's own status: an `observer` part of hello and an `observer` event, once the
 * server sends them. Until then only `production.smartObserver` exists. */
export interface ObserverStatus extends SmartObserver {
  subscriptionActive?: boolean;
  link?: { connection: ObserverLinkState; address?: string | null; reason?: string | null };
  suggestion?: { slot: number; name: string; steamid?: string; reason?: string; since?: number } | null;
  lastCut?: unknown;
}

export interface Snapshot {
  revision: number;
  state: HudState;
  match: Match;
  veto: VetoStatus;
  reveal: { revealed: number; total: number; instant: boolean };
  production: { smartObserver: SmartObserver };
  activePresetId: string | null;
  observer?: ObserverStatus | null;
}

export interface EventMessage {
  type: 'event';
  event: string;
  revision: number;
  /** Shaped by `event` (docs/websocket.md); read per event below. */
  data: unknown;
}

/** The parts of a `game` message the module reads. */
export interface GameMessage {
  full?: boolean;
  live?: {
    observed?: { steamid?: string; slot?: number } | null;
    players?: Record<string, { name?: string } | null> | null;
  };
}

/** The live game's observed player (game messages carry no revision). */
export interface GameView {
  observedSlot: number | null;
  observedSteamid: string | null;
  names: Map<string, string>;
}

export type EventOutcome = 'applied' | 'stale' | 'gap';

/**
 * Applies one event. Events of one command share its revision, notifications carry the current one:
 * both apply. An older revision is already in the snapshot ('stale'); a revision that skips one
 * means an event was missed ('gap': ask for a snapshot).
 */
export function applyEvent(
  snapshot: Snapshot,
  message: EventMessage,
): { snapshot: Snapshot; outcome: EventOutcome } {
  if (message.revision < snapshot.revision) return { snapshot, outcome: 'stale' };
  if (message.revision > snapshot.revision + 1) return { snapshot, outcome: 'gap' };
  const next: Snapshot = { ...snapshot, revision: message.revision };
  const data = message.data;
  switch (message.event) {
    case 'hud.state':
      next.state = { ...snapshot.state, ...(data as Partial<HudState>), revision: message.revision };
      break;
    case 'host':
      next.state = {
        ...snapshot.state,
        mainWindowOpen: (data as { mainWindowOpen: boolean }).mainWindowOpen,
      };
      break;
    case 'match':
      next.match = data as Match;
      break;
    case 'veto.session':
      next.veto = data as VetoStatus;
      break;
    case 'veto.reveal':
      next.reveal = data as Snapshot['reveal'];
      break;
    case 'production':
      next.production = data as Snapshot['production'];
      break;
    case 'presets':
      next.activePresetId = (data as { activePresetId?: string | null }).activePresetId ?? null;
      break;
    case 'observer':
      next.observer = data as ObserverStatus;
      break;
    default:
      // Notifications (replay.saved, overlay.reload, branding, stats.player, …) change nothing
      // the buttons show.
      break;
  }
  return { snapshot: next, outcome: 'applied' };
}

export function emptyGameView(): GameView {
  return { observedSlot: null, observedSteamid: null, names: new Map() };
}

/** Applies a `game` message: `full` replaces the view, otherwise only the parts present change. */
export function applyGame(view: GameView, message: GameMessage): GameView {
  const live = message.live ?? {};
  const next: GameView = message.full
    ? emptyGameView()
    : { observedSlot: view.observedSlot, observedSteamid: view.observedSteamid, names: view.names };
  if (live.players !== undefined) {
    next.names = new Map(message.full ? [] : next.names);
    for (const [steamid, player] of Object.entries(live.players ?? {})) {
      if (player === null) next.names.delete(steamid);
      else if (typeof player.name === 'string') next.names.set(steamid, player.name);
    }
  }
  if (live.observed !== undefined) {
    next.observedSlot = live.observed?.slot ?? null;
    next.observedSteamid = live.observed?.steamid ?? null;
  }
  return next;
}

/** The smart observer as the server reports it: its own status when sent, else the setting. */
export function observerOf(snapshot: Snapshot): ObserverStatus {
  return snapshot.observer ?? snapshot.production.smartObserver;
}
