import type { LoadedRecording, RecordingFile } from '../../../machines/game-recorder.machine.ts';
import type {
  AnyCommandName,
  CommandContract,
  CommandPayload,
  CommandResultOf,
} from '../../protocol/commands.ts';
import { contractOf } from '../../protocol/commands.ts';
import type { GameLive, GamePlayer } from '../../protocol/game.ts';
import type { SettingsOwner } from '../../settings/settings-owner.ts';
import type { PlayerStatsLookup } from '../../stats/player-stats-lookup.ts';
import type { Callers } from '../caller.ts';
import type { HudSystem } from '../hud-system.ts';
import type { NoticeBus } from '../notices.ts';
import type { StateHub } from '../state-hub.ts';
import type { TeamsDatabase } from '../teams-database.ts';

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

/** The data directory's recordings folder (src/recorder/recordings.ts provides it). */
export interface GameRecordings {
  /** The recordings, newest first. */
  list(): Promise<RecordingFile[]>;
  /** The name of a recording started at `at`. */
  nameFor(at: number): string;
  /** A recording checked whole: not_found, or invalid_payload naming what is damaged. */
  load(file: string): Promise<LoadedRecording>;
}

export interface CommandContext {
  hud: HudSystem;
  hub: StateHub;
  /** Notices without a revision (the overlay should reload). */
  notices: Pick<NoticeBus, 'emit'>;
  /** The live game data: the observed player and the players' live values. */
  game: LiveStats;
  /** The third-party stats providers of show_player_stats and what they found this match. */
  stats: PlayerStatsLookup;
  /** The settings that last (the settings command changes them). */
  settings: SettingsOwner;
  /** The recordings of game data in the data directory. */
  recordings: GameRecordings;
  /** The database of teams and players (its own file: docs/teams-and-players.md). */
  teams: TeamsDatabase;
  /** An id of this command, unique in the process: correlates an actor's outcome with it. */
  requestId: string;
}

/**
 * One command: its contract (src/protocol/commands.ts: description, payload and result schemas,
 * needsMainWindow, stateKeys), who may run it and what it does, in one place. `run` takes the
 * contract's payload and answers its result: an answer that misses or mistypes a field fails to
 * compile, one with a field more fails test/core/command-results.test.ts.
 */
export interface Command<N extends AnyCommandName = AnyCommandName> extends CommandContract {
  id: N;
  /** Who may run it: its registry's rule unless the command has its own (the reports do). */
  callers?: Callers;
  run(context: CommandContext, payload: CommandPayload<N>): CommandResultOf<N> | Promise<CommandResultOf<N>>;
}

/** The command `id` of the contract, with its handler (and its callers, where not the public ones). */
export function defineCommand<N extends AnyCommandName>(
  id: N,
  handler: Pick<Command<N>, 'run' | 'callers'>,
): Command<N> {
  const entry = contractOf(id);
  if (!entry) throw new Error(`no command ${id} in src/protocol/commands.ts`);
  return { id, ...entry, ...handler };
}

/** Commands of mixed payload types in one list. */
// biome-ignore lint/suspicious/noExplicitAny: the registry stores commands of every payload type
export type AnyCommand = Command<any>;
