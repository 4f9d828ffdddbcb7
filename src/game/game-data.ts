/**
 * Game data, the adapter: checks the cfg's token, the payload's schema and ranges, parses the frame,
 * keeps the live view and the status, and rates what goes to the pages. What lasts of a frame goes
 * to the `game` actor (machines/game.machine.ts), which owns the rules: receiving or stale, the
 * sides, the half-time swap, the map's result, the roster it reports, the stats pick, the dialect.
 * Everything else goes to the pages as `game` messages with what changed, at the rate the frames come.
 */
import secureJson from 'secure-json-parse';
import type { GameDialect, GameFacts, GameReport, GameSnapshot } from '../../machines/game.machine.ts';
import type { MapFigures } from '../../machines/host.machine.ts';
import type { ExpectedToken } from '../access/access-token.ts';
import { expectedToken } from '../access/access-token.ts';
import type { LiveStats } from '../core/commands/command.ts';
import type { HudSystem } from '../core/hud-system.ts';
import type { NoticeBus } from '../core/notices.ts';
import type { StateHub } from '../core/state-hub.ts';
import type { RawGsiFrame } from '../observer/director-frame.ts';
import { toDirectorFrame } from '../observer/director-frame.ts';
import type { StorageStatus } from '../protocol/answers.ts';
import type { Check } from '../protocol/compiled-check.ts';
import { compiledCheck } from '../protocol/compiled-check.ts';
import { invalidPayload, ServiceError } from '../protocol/errors.ts';
import type {
  GameHlaeStatus,
  GameKillPlayer,
  GameLive,
  GameMessage,
  GamePlayer,
  GameProblem,
  GameStatus,
  SlotNumbering,
} from '../protocol/game.ts';
import { HLAE_PATH } from '../protocol/game.ts';
import { AdrTracker } from './adr.ts';
import { BombClock } from './bomb-clock.ts';
import { carriesToken, mentionsToken } from './frame-token.ts';
import type { IdentityOf } from './game-frame.ts';
import { onAir, parseFrame, rosterOfFrame } from './game-frame.ts';
import { GsiPayload, playersProblem } from './gsi-payload.ts';
import type { PlayerDeath } from './hlae-killfeed.ts';
import { HlaeKillfeed } from './hlae-killfeed.ts';
import type { FeedRound } from './killfeed.ts';
import { Killfeed } from './killfeed.ts';
import { diffLive, sameStatusMeaning } from './live-diff.ts';
import type { Numbering } from './slots.ts';
import { hudSlot, LAST_CSGO_VERSION, numberingOf } from './slots.ts';

export { RECEIVING_TIMEOUT_MS } from '../../machines/game.machine.ts';
/** While frames arrive, the status (its "last frame … ago") goes out at most this often. */
export const STATUS_EVERY_MS = 500;
/**
 * A refused frame changes the status at most this often, and only while no accepted frame arrives:
 * a flood of frames without the token must not make the status flicker at its rate.
 */
export const REFUSAL_STATUS_EVERY_MS = 1_000;

/** What frames cost since start: for tests and the bench. */
export interface FrameCounters {
  /** Bodies parsed as JSON: only those that carried the token. */
  parsed: number;
  /** Bodies refused for their token before they were parsed. */
  refusedUnread: number;
  /** Frames of the game dropped because a replay ran. */
  droppedDuringReplay: number;
}

export interface GameDataOptions {
  hud: HudSystem;
  hub: StateHub;
  /** Hears the pages' `game` messages of what changed (`game.message`), at the frames' rate. */
  notices: Pick<NoticeBus, 'emit'>;
  /** The cfg's auth token: a frame without it is refused. */
  token: string;
  /** How observer_slot is numbered when the provider version does not say. */
  slotNumbering: () => SlotNumbering;
  /** Whether changes can be saved now (the store's status): while not, frames change nothing that lasts. */
  storage: () => StorageStatus;
  /** ADR's figures the service started from (the saved state's), or null. */
  mapFigures: MapFigures | null;
  /** How long after the last frame "receiving" ends, for the status's words (the game actor's delay). */
  receivingTimeoutMs: number;
  /** A recording is being replayed: the game's own frames are dropped meanwhile (the recorder actor says). */
  replaying: () => boolean;
  /** Each frame the ingest took (its checks passed), as it arrived, at its arrival time: in the frame's batch. */
  accepted: (frame: unknown, at: number) => void;
  /** Who a player is on air: the database of teams and players (docs/teams-and-players.md). */
  identityOf: IdentityOf;
  now?: () => number;
}

const HELD_NOTE =
  "storage is failing: the roster, the sides, the map score and ADR's rounds from the game are held as last saved, and applied once the disk takes writes again";

const EMPTY_LIVE: GameLive = {
  map: null,
  round: null,
  bomb: null,
  observed: null,
  players: {},
  grenades: [],
  killfeed: [],
};

export class GameData implements LiveStats {
  readonly #hud: HudSystem;
  readonly #notices: Pick<NoticeBus, 'emit'>;
  readonly #hub: StateHub;
  readonly #token: string;
  /** The token, hashed once: every frame is checked against it, twice (its text, then parsed). */
  readonly #expected: ExpectedToken;
  readonly #slotNumbering: () => SlotNumbering;
  readonly #storage: () => StorageStatus;
  readonly #replaying: () => boolean;
  readonly #accepted: (frame: unknown, at: number) => void;
  readonly #timeoutMs: number;
  readonly #identityOf: IdentityOf;
  readonly #now: () => number;
  readonly #check: Check<typeof GsiPayload> = compiledCheck(GsiPayload);
  readonly #adr: AdrTracker;
  readonly #bomb = new BombClock();
  /** Killfeed entries' ids, one count for both feeds: a page keys entries by them. */
  #killId = 0;
  readonly #nextKillId = () => ++this.#killId;
  readonly #killfeed = new Killfeed(this.#nextKillId);
  /** HLAE's exact feed: the one shown while its link is live, the inferred one kept beside it meanwhile. */
  readonly #hlaeFeed = new HlaeKillfeed(this.#nextKillId);
  #live: GameLive = EMPTY_LIVE;
  #status: GameStatus;
  #statusSentAt = 0;
  /** The game actor's report the status last showed: a new one outside a frame (storage restored) shows. */
  #report: GameReport | null = null;
  /** A frame is being taken: its status is set there, not by the actor's snapshot. */
  #ingesting = false;
  readonly #stopFollowing: () => void;
  #refusalReportedAt = Number.NEGATIVE_INFINITY;
  /** Where HLAE's link listens: the automation server's port, null while it is switched off. */
  #automationPort: number | null = null;
  readonly #counters: FrameCounters = { parsed: 0, refusedUnread: 0, droppedDuringReplay: 0 };

  constructor(options: GameDataOptions) {
    this.#hud = options.hud;
    this.#notices = options.notices;
    this.#hub = options.hub;
    this.#token = options.token;
    this.#expected = expectedToken(options.token);
    this.#slotNumbering = options.slotNumbering;
    this.#storage = options.storage;
    this.#replaying = options.replaying;
    this.#accepted = options.accepted;
    this.#timeoutMs = options.receivingTimeoutMs;
    this.#identityOf = options.identityOf;
    this.#now = options.now ?? Date.now;
    this.#adr = new AdrTracker(options.mapFigures);
    const numbering = numberingOf(undefined, this.#slotNumbering());
    this.#status = {
      receiving: false,
      source: null,
      lastFrameAt: null,
      frames: 0,
      problem: 'nothing_received',
      message: 'nothing received from the game yet: install the cfg file and start spectating',
      slotNumbering: numbering.numbering,
      numberingFrom: numbering.from,
      seriesMap: null,
      notes: [],
      hlae: {
        connected: false,
        live: false,
        source: null,
        deaths: 0,
        lastEventAt: null,
        refused: null,
        console: hlaeConsole(null),
      },
    };
    this.#stopFollowing = this.#hud.follow('game', this.#onGame);
  }

  /** The cfg's auth token (gsi-config writes it into the file). */
  get token(): string {
    return this.#token;
  }

  status(): GameStatus {
    return this.#status;
  }

  live(): GameLive {
    return this.#live;
  }

  /** Everything a page needs to draw the live view and the status from scratch (after hello). */
  fullMessage(): GameMessage {
    return { type: 'game', now: this.#now(), full: true, live: this.#live, status: this.#status };
  }

  statsSlot(): number | null {
    return this.#hud.snapshot('game').context.statsPick ?? this.#live.observed?.slot ?? null;
  }

  playerInSlot(slot: number): GamePlayer | null {
    for (const player of Object.values(this.#live.players)) if (player.slot === slot) return player;
    return null;
  }

  /**
   * The database of teams and players changed: the live players go out again under who they are now,
   * without waiting for the next frame (the roster follows with the next frame).
   */
  refreshIdentities(): void {
    const players: GameLive['players'] = {};
    for (const [steamid, player] of Object.entries(this.#live.players)) {
      players[steamid] = { ...player, ...onAir(this.#identityOf(steamid), player.gameName) };
    }
    // The feed's entries hold steamids: those made before the change take the new names too, so a
    // killer and his victim read the same in the feed as in the player boxes.
    const killfeed = this.#killfeed.rename((steamid) =>
      Object.hasOwn(players, steamid)
        ? (players[steamid] as GamePlayer).name
        : (this.#identityOf(steamid)?.name ?? null),
    );
    this.#publish({ ...this.#live, players, killfeed });
  }

  /** The automation server's port, once it listens (null: switched off): the console lines name it. */
  automationPort(port: number | null): void {
    this.#automationPort = port;
    this.#setHlae({ console: hlaeConsole(port) });
  }

  /**
   * The console lines for HLAE on another PC: this machine's local-network address and the access
   * token in the link's address. Only for the operator app (never in the status, which read-only
   * pages receive); none while the automation server is switched off.
   */
  hlaeConsoleFrom(host: string, token: string): string[] {
    return hlaeConsole(this.#automationPort, host, token);
  }

  /** An HLAE client connected (src/automation-server/hlae.routes.ts); a second replaces the first. */
  hlaeConnected(source: string): void {
    this.#setHlae({ connected: true, live: false, source, deaths: 0, lastEventAt: null, refused: null });
  }

  /** It said hello with the right version: from now on the killfeed is its events'. */
  hlaeLive(): void {
    if (this.#status.hlae.live) return;
    this.#setHlae({ live: true });
    this.#publish({ ...this.#live, killfeed: this.#hlaeFeed.entries });
  }

  /** One player_death from the live link: an entry when the victim is among the frame's players. */
  hlaeDeath(death: PlayerDeath): void {
    if (!this.#status.hlae.live) return;
    const players: Record<string, GameKillPlayer> = this.#live.players;
    if (!this.#hlaeFeed.add(death, players)) return;
    this.#setHlae({ deaths: this.#status.hlae.deaths + 1, lastEventAt: this.#now() });
    this.#publish({ ...this.#live, killfeed: this.#hlaeFeed.entries });
  }

  /** The link closed (`refused`: why, when it was for bad input): the inferred feed takes over at once. */
  hlaeClosed(refused: string | null): void {
    const wasLive = this.#status.hlae.live;
    this.#setHlae({ connected: false, live: false, source: null, refused });
    if (wasLive) this.#publish({ ...this.#live, killfeed: this.#killfeed.entries });
  }

  #setHlae(change: Partial<GameHlaeStatus>): void {
    this.#setStatus({ hlae: { ...this.#status.hlae, ...change } });
  }

  /** The operator's pick: kept by the game actor. */
  pickStatsPlayer(slot: number | null): void {
    this.#hud.send('game', { type: 'game.stats.pick', slot });
  }

  get counters(): FrameCounters {
    return { ...this.#counters };
  }

  /**
   * The body of a POST, from `source` (the peer's address): refused (401) before it is parsed unless
   * its text holds the cfg's token where the game writes it (frame-token.ts); then parsed. `ingest`
   * checks the token again, parsed.
   */
  read(text: string, source: string): unknown {
    if (!carriesToken(text, this.#expected)) {
      this.#counters.refusedUnread++;
      throw this.#refused(source, mentionsToken(text));
    }
    this.#counters.parsed++;
    try {
      // Not plain JSON.parse, though it would be safe here: it makes a "__proto__" key an own
      // property, never a prototype, and a frame is only read field by field into objects of its
      // own (the live view's players by Object.fromEntries). But a steamid "__proto__" would reach
      // the pages as a key, and they merge players by assignment. Refusing such a frame at the door
      // costs two scans of the text, about 5 µs of an 8 KB frame (JSON.parse 33 µs, issue 23).
      return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch (error) {
      throw invalidPayload(`the frame is not valid JSON: ${(error as Error).message}`);
    }
  }

  /**
   * One frame of the game, parsed (`read`), from `source`. Answers at once: nothing here waits for
   * the disk. A frame without the auth token is refused (401) and changes nothing.
   */
  ingest(body: unknown, source: string): void {
    // A rehearsal on a recording: the game's own frames would mix with it (docs/game-data.md).
    if (this.#replaying()) {
      this.#counters.droppedDuringReplay++;
      return;
    }
    this.#take(body, source, this.#now());
  }

  /**
   * A frame of a recording (src/recorder/recordings.ts) at its time: the same checks and the same path as
   * a frame of the game, with the running server's token in place of the one it was recorded with.
   */
  replay(frame: unknown, at: number, file: string): void {
    const body =
      frame !== null && typeof frame === 'object' && !Array.isArray(frame)
        ? { ...frame, auth: { token: this.#token } }
        : frame;
    this.#take(body, `replay of ${file}`, at);
  }

  #take(body: unknown, source: string, now: number): void {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw invalidPayload('a game state frame is a JSON object');
    }
    const token = (body as { auth?: { token?: unknown } }).auth?.token;
    if (!this.#expected.matches(typeof token === 'string' ? token : undefined)) {
      throw this.#refused(source, token !== undefined);
    }
    if (!this.#check.Check(body)) {
      const first = this.#check.Errors(body).First();
      if (!first) throw invalidPayload('game state frame: not valid');
      // A field's description says what it takes more plainly than its pattern (a point, a countdown).
      const why = first.schema.description ? `Expected ${first.schema.description}` : first.message;
      throw invalidPayload(`game state frame: ${first.path || '/'} ${why}`);
    }
    const players = playersProblem(body.allplayers);
    if (players) throw invalidPayload(`game state frame: ${players}`);
    const numbering = numberingOf(body.provider?.version, this.#slotNumbering());
    const frame = parseFrame(body, numbering.numbering, this.#identityOf);
    const version = body.provider?.version;
    const dialect: GameDialect = version !== undefined && version <= LAST_CSGO_VERSION ? 'csgo' : 'cs2';
    const roundPhase = body.round?.phase ?? null;
    if (frame.spectator && frame.map) {
      this.#adr.observe({
        map: frame.map.name,
        round: frame.map.round,
        roundPhase,
        mapPhase: frame.map.phase,
        damage: frame.players.map((player) => [player.steamid, player.roundDamage] as const),
      });
    }
    const facts: GameFacts = {
      spectator: frame.spectator,
      dialect,
      roster: rosterOfFrame(frame),
      map: frame.map,
      roundPhase,
      figures: this.#adr.figures,
      director: toDirectorFrame(body as RawGsiFrame, {
        now,
        hudSlot: (slot) => hudSlot(slot, numbering.numbering),
      }),
    };
    // While storage fails, what lasts is held by the game actor, not applied then rolled back by
    // the failed write (a flip on the HUD each way, per frame): the HUD state's `storage` says why.
    const lasting = this.#storage().ok;
    this.#ingesting = true;
    try {
      this.#hub.batch(() => {
        this.#hud.send('game', { type: 'game.frame', facts, lasting });
        // In the frame's batch: a recording keeps it (the service hands it to the recorder actor).
        this.#accepted(body, now);
      });
    } finally {
      this.#ingesting = false;
    }
    if (!frame.spectator) {
      this.#setStatus(
        {
          ...this.#arrived(source, now, numbering),
          problem: 'player_view',
          message:
            "the game sends a player's view, not a spectator's: spectate the match (GOTV or an observer slot) for the players and the roster",
        },
        now,
      );
      return;
    }
    const { report } = this.#hud.snapshot('game').context;
    this.#report = report;
    const all = body.allplayers;
    this.#publishLive(
      frame,
      frameSeconds(body.provider?.timestamp, now),
      (steamid) => (all && Object.hasOwn(all, steamid) ? all[steamid]?.state?.round_killhs : undefined) ?? 0,
    );
    this.#setStatus(
      {
        ...this.#arrived(source, now, numbering),
        problem: null,
        message: `receiving from ${source}`,
        ...reportStatus(report),
      },
      now,
    );
  }

  /**
   * The game actor's snapshots: the end of "receiving" (its timeout), and a report that changed
   * outside a frame (the held frame applied once storage works again).
   */
  readonly #onGame = (snapshot: GameSnapshot): void => {
    if (this.#ingesting) return;
    if (snapshot.matches('stale') && this.#status.receiving) {
      const problem: GameProblem = 'stopped';
      const seconds = Math.round(this.#timeoutMs / 100) / 10;
      this.#setStatus({
        receiving: false,
        problem,
        message: `no frame for ${seconds} s: is the game running and spectating?`,
      });
    }
    const { report } = snapshot.context;
    if (this.#report !== null && report !== this.#report) {
      this.#report = report;
      this.#setStatus(reportStatus(report));
    }
  };

  /**
   * A frame refused for its token. The status is driven by accepted frames: while they arrive, a
   * refusal changes nothing there (the recent-requests list has it); otherwise it says so, at most
   * once every REFUSAL_STATUS_EVERY_MS, whatever the rate of the refused frames.
   */
  #refused(source: string, hadToken: boolean): ServiceError {
    const now = this.#now();
    if (!this.#status.receiving && now - this.#refusalReportedAt >= REFUSAL_STATUS_EVERY_MS) {
      this.#refusalReportedAt = now;
      this.#setStatus(
        {
          problem: 'wrong_token',
          message: `a frame from ${source} had ${hadToken ? 'a wrong' : 'no'} auth token: install the cfg file again (hud-automation gsi-config --install)`,
        },
        now,
      );
    }
    return new ServiceError(
      'unauthorized',
      'the frame does not carry the auth token of the installed cfg file',
    );
  }

  close(): void {
    this.#stopFollowing();
  }

  #arrived(source: string, now: number, numbering: Numbering): Partial<GameStatus> {
    return {
      receiving: true,
      source,
      lastFrameAt: now,
      frames: this.#status.frames + 1,
      slotNumbering: numbering.numbering,
      numberingFrom: numbering.from,
    };
  }

  /** `at`: the frame's time in seconds, on the game's clock when it says it (bomb-clock.ts). */
  #publishLive(
    frame: ReturnType<typeof parseFrame>,
    at: number,
    headshots: (steamid: string) => number,
  ): void {
    const round = frame.round;
    const clocks = this.#bomb.observe(frame, at, round?.phase === 'bomb' ? round.clock : null);
    const slotOf = (steamid: string | null) =>
      steamid === null ? null : (frame.players.find((p) => p.steamid === steamid)?.slot ?? null);
    const next: GameLive = {
      map: frame.map,
      round: frame.round,
      bomb: frame.bomb
        ? {
            state: frame.bomb.state,
            countdown: frame.bomb.countdown,
            playerSlot: slotOf(frame.bomb.playerSteamid),
            position: frame.bomb.position,
            ...clocks,
          }
        : null,
      observed: frame.observedSteamid
        ? { steamid: frame.observedSteamid, slot: slotOf(frame.observedSteamid) }
        : null,
      players: Object.fromEntries(
        frame.players.map((player) => [player.steamid, { ...player, adr: this.#adr.adrOf(player.steamid) }]),
      ),
      grenades: frame.grenades,
      killfeed: [],
    };
    // From the live view's players: their names are the ones on air. Both feeds follow every frame,
    // so that either can be shown the moment HLAE's link comes or goes.
    const where: FeedRound | null = frame.map
      ? { map: frame.map.name, round: frame.map.round, roundPhase: frame.round?.phase ?? null }
      : null;
    const inferred = where
      ? this.#killfeed.observe({
          ...where,
          players: Object.values(next.players).map((player) => ({
            ...player,
            roundHeadshots: headshots(player.steamid),
          })),
        })
      : [];
    const exact = where ? this.#hlaeFeed.observe(where) : [];
    next.killfeed = this.#status.hlae.live ? exact : inferred;
    this.#publish(next);
  }

  #publish(next: GameLive): void {
    const patch = diffLive(this.#live, next);
    this.#live = next;
    if (patch)
      this.#notices.emit('game.message', { type: 'game', now: this.#now(), full: false, live: patch });
  }

  /** The status; sent at once when what it says changes, else at most every STATUS_EVERY_MS. */
  #setStatus(change: Partial<GameStatus>, now = this.#now()): void {
    const before = this.#status;
    const next = { ...before, ...change };
    this.#status = next;
    if (sameStatusMeaning(next, before) && now - this.#statusSentAt < STATUS_EVERY_MS) return;
    this.#statusSentAt = now;
    this.#notices.emit('game.message', { type: 'game', now, full: false, status: next });
  }
}

/**
 * A frame's time in seconds: the game's `provider.timestamp` (Unix seconds; a figure in milliseconds
 * is read as such), else the server's clock.
 */
function frameSeconds(timestamp: number | string | undefined, now: number): number {
  const value = timestamp === undefined ? Number.NaN : Number(timestamp);
  if (!Number.isFinite(value)) return now / 1000;
  return value > 1e11 ? value / 1000 : value;
}

/** The status's part that the game actor's report decides: the series map and why a score is not recorded. */
function reportStatus(report: GameReport): Partial<GameStatus> {
  return report.held ? { notes: [HELD_NOTE] } : { seriesMap: report.seriesMap, notes: report.notes };
}

/**
 * What to type into the game's console on this machine (HLAE's CS:GO mirv_pgl): where to connect,
 * and start. The server sends the rest (events on, enriched) once the game says hello.
 */
function hlaeConsole(port: number | null, host = '127.0.0.1', token?: string): string[] {
  if (port === null) return [];
  const query = token === undefined ? '' : `?token=${encodeURIComponent(token)}`;
  return [`mirv_pgl url "ws://${host}:${port}${HLAE_PATH}${query}"`, 'mirv_pgl start'];
}
