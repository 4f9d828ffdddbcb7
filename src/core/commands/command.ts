import type { Static, TSchema } from '@sinclair/typebox';
import type { GameLive, GamePlayer } from '../../protocol/game.ts';
import type { SettingsOwner } from '../../settings/settings-owner.ts';
import type { PlayerStatsLookup } from '../../stats/player-stats-lookup.ts';
import type { Callers } from '../caller.ts';
import type { HudSystem } from '../hud-system.ts';
import type { StateHub } from '../state-hub.ts';
import type { HudStateKey } from '../views.ts';

/** What the stats commands need of the live game data (src/game/game-data.ts provides it). */
export interface LiveStats {
  /** The player of toggle_stats and show_stats: the operator's pick, else the observed player. */
  statsSlot(): number | null;
  /** The live values of the player in a HUD slot, or null without game data for that slot. */
  playerInSlot(slot: number): GamePlayer | null;
  /** The operator's pick (null: follow the observed player). */
  pickStatsPlayer(slot: number | null): void;
  /** The live view: whether the game data carries a map (a roster-only frame has no values). */
  live(): GameLive;
}

export interface CommandContext {
  hud: HudSystem;
  hub: StateHub;
  /** The live game data: the observed player and the players' live values. */
  game: LiveStats;
  /** The third-party stats providers of show_player_stats and what they found this match. */
  stats: PlayerStatsLookup;
  /** The settings that last (the settings command changes them). */
  settings: SettingsOwner;
  /** An id of this command, unique in the process: correlates an actor's outcome with it. */
  requestId: string;
}

export type PayloadOf<P extends TSchema | null> = P extends TSchema ? Static<P> : undefined;

/** One command: its schema, its rules and what it does, in one place. */
export interface Command<P extends TSchema | null = TSchema | null> {
  id: string;
  description: string;
  /** TypeBox schema of the payload, or null when the command takes none. */
  payload: P;
  needsMainWindow: boolean;
  /** HUD-state fields the command is about: the answer's `state` carries them beside the revision. */
  stateKeys: readonly HudStateKey[];
  /** Who may run it: its registry's rule unless the command has its own (the reports do). */
  callers?: Callers;
  /**
   * The schema of what `run` returns: the HTTP answer is then serialised by it, on a route of the
   * command's own. Without one the result is serialised by JSON.stringify, property by property
   * (5.4 µs for a match summary against 1.3 µs typed, issue 18).
   */
  result?: TSchema;
  run(context: CommandContext, payload: PayloadOf<P>): object | Promise<object>;
}

export function defineCommand<P extends TSchema | null>(command: Command<P>): Command<P> {
  return command;
}

/** Commands of mixed payload types in one list. */
// biome-ignore lint/suspicious/noExplicitAny: the registry stores commands of every payload type
export type AnyCommand = Command<any>;
