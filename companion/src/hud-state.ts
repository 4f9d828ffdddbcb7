/**
 * What the module knows of the server: the `hello` snapshot, kept current by the WebSocket events
 * (docs/websocket.md). Pure functions: the connection feeds messages in, feedbacks and variables
 * read the result. The shapes are the schemas of server-messages.ts, which every message was
 * checked against before it gets here.
 */
import type {
  EventData,
  EventMessage,
  GameMessage,
  LiveBomb,
  LiveMap,
  LivePlayer,
  LiveRound,
  ObserverStatus,
  Snapshot,
} from './server-messages.ts';

/** The live game as the buttons show it (game messages carry no revision). */
export interface GameView {
  observedSlot: number | null;
  observedSteamid: string | null;
  names: Map<string, string>;
  /** By steamid, the figures of each player in the game. */
  players: Map<string, LivePlayer>;
  map: LiveMap | null;
  round: LiveRound | null;
  bomb: LiveBomb | null;
}

export type EventOutcome = 'applied' | 'stale' | 'gap';

/**
 * Applies one event. Events of one command share its revision, notifications carry the current one:
 * both apply. An older revision is already in the snapshot ('stale'); a revision that skips one
 * means an event was missed ('gap': ask for a snapshot). The data of each event read here was
 * checked against its schema (EVENT_DATA) when the message arrived.
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
      next.state = { ...snapshot.state, ...(data as EventData<'hud.state'>), revision: message.revision };
      break;
    case 'host':
      next.state = {
        ...snapshot.state,
        mainWindowOpen: (data as EventData<'host'>).mainWindowOpen,
      };
      break;
    case 'match':
      next.match = data as EventData<'match'>;
      break;
    case 'veto.session':
      next.veto = data as EventData<'veto.session'>;
      break;
    case 'veto.reveal':
      next.reveal = data as EventData<'veto.reveal'>;
      break;
    case 'production':
      next.production = data as EventData<'production'>;
      break;
    case 'presets': {
      const presets = data as EventData<'presets'>;
      next.activePresetId = presets.activePresetId ?? null;
      if (presets.presets) next.presets = presets.presets;
      break;
    }
    case 'stats.player':
      next.statsPlayer = data as EventData<'stats.player'>;
      break;
    case 'observer':
      next.observer = data as EventData<'observer'>;
      break;
    default:
      // Notifications (replay.saved, overlay.reload, branding, stats.player, …) change nothing
      // the buttons show.
      break;
  }
  return { snapshot: next, outcome: 'applied' };
}

export function emptyGameView(): GameView {
  return { observedSlot: null, observedSteamid: null, names: new Map(), players: new Map(), map: null, round: null, bomb: null };
}

/** Applies a `game` message: `full` replaces the view, otherwise only the parts present change. */
export function applyGame(view: GameView, message: GameMessage): GameView {
  const live = message.live ?? {};
  const next: GameView = message.full
    ? emptyGameView()
    : { ...view };
  if (live.players !== undefined) {
    next.names = new Map(message.full ? [] : next.names);
    next.players = new Map(message.full ? [] : next.players);
    for (const [steamid, player] of Object.entries(live.players ?? {})) {
      if (player === null) {
        next.names.delete(steamid);
        next.players.delete(steamid);
        continue;
      }
      if (typeof player.name === 'string') next.names.set(steamid, player.name);
      next.players.set(steamid, player);
    }
  }
  if (live.map !== undefined) next.map = live.map;
  if (live.round !== undefined) next.round = live.round;
  if (live.bomb !== undefined) next.bomb = live.bomb;
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
