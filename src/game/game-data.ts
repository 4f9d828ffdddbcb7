/**
 * Game data: takes the game's frames, keeps the live view, and tells the actors what lasts. Per
 * frame it only compares: the roster, the sides, the map score and "receiving" reach the machines
 * (and so the revision and the saved state) when they change; everything else goes to the pages as
 * `game` messages with what changed, at the rate the frames come.
 */
import type { Emitter } from 'mitt';
import mittModule from 'mitt';
import secureJson from 'secure-json-parse';
import type { GameSide } from '../../machines/game-sides.ts';
import { sideChangesBetween } from '../../machines/game-sides.ts';
import { sameRoster } from '../../machines/host.machine.ts';
import { mapLabel, normalizeMapName } from '../../machines/map-names.ts';
import type { MatchInput } from '../../machines/match.machine.ts';
import type { ExpectedToken } from '../access/access-token.ts';
import { expectedToken } from '../access/access-token.ts';
import type { LiveStats } from '../core/commands/command.ts';
import type { HudSystem } from '../core/hud-system.ts';
import type { StateHub } from '../core/state-hub.ts';
import type { RawGsiFrame } from '../observer/director-frame.ts';
import { toDirectorFrame } from '../observer/director-frame.ts';
import type { ConsoleDialect } from '../observer/netcon-lines.ts';
import type { StorageStatus } from '../protocol/answers.ts';
import type { Check } from '../protocol/compiled-check.ts';
import { compiledCheck } from '../protocol/compiled-check.ts';
import { invalidPayload, ServiceError } from '../protocol/errors.ts';
import type {
  GameLive,
  GameMessage,
  GamePlayer,
  GameProblem,
  GameStatus,
  SlotNumbering,
} from '../protocol/game.ts';
import type { EventMessage } from '../protocol/websocket.ts';
import { AdrTracker } from './adr.ts';
import { carriesToken, mentionsToken } from './frame-token.ts';
import type { GameFrame } from './game-frame.ts';
import { parseFrame, rosterOfFrame } from './game-frame.ts';
import { GsiPayload, playersProblem } from './gsi-payload.ts';
import { diffLive, sameStatusMeaning } from './live-diff.ts';
import type { Numbering } from './slots.ts';
import { hudSlot, LAST_CSGO_VERSION, numberingOf } from './slots.ts';

const mitt = mittModule as unknown as typeof mittModule.default;

/** "Receiving" ends this long after the last good frame: the cfg's heartbeat (2 s) twice, and a second. */
export const RECEIVING_TIMEOUT_MS = 5_000;
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
}

export type GameDataEvents = { message: GameMessage };

export interface GameDataOptions {
  hud: HudSystem;
  hub: StateHub;
  /** The cfg's auth token: a frame without it is refused. */
  token: string;
  /** How observer_slot is numbered when the provider version does not say. */
  slotNumbering: () => SlotNumbering;
  /** Whether changes can be saved now (the store's status): while not, frames change nothing that lasts. */
  storage: () => StorageStatus;
  receivingTimeoutMs?: number;
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
};

const eqName = (a: string | null | undefined, b: string | null | undefined) =>
  a != null && b != null && a.trim().toLowerCase() === b.trim().toLowerCase();

/** Team A's side when the game's team names say it, else null (the operator's assignment stands). */
export function sideByNames(match: Pick<MatchInput, 'teamA' | 'teamB'>, ct: string | null, t: string | null) {
  const a = match.teamA?.name;
  const b = match.teamB?.name;
  if (eqName(a, b)) return null;
  if (eqName(ct, a) || eqName(t, b)) return eqName(t, a) || eqName(ct, b) ? null : ('CT' as GameSide);
  if (eqName(t, a) || eqName(ct, b)) return 'T' as GameSide;
  return null;
}

/** The rounds of a map in which the sides count: a new round has started (not its end, not half time). */
const ROUND_STARTED = new Set(['freezetime', 'live']);
/**
 * Map phases whose score is recorded: not warm-up, and not half time (nothing scores then, and the
 * side names may already have changed while the sides here change with the next round).
 */
const SCORED = new Set(['live', 'gameover']);

export class GameData implements LiveStats {
  readonly emitter: Emitter<GameDataEvents> = mitt<GameDataEvents>();
  readonly #hud: HudSystem;
  readonly #hub: StateHub;
  readonly #token: string;
  /** The token, hashed once: every frame is checked against it, twice (its text, then parsed). */
  readonly #expected: ExpectedToken;
  readonly #slotNumbering: () => SlotNumbering;
  readonly #storage: () => StorageStatus;
  /** The last frame's lasting changes, held while storage fails. */
  #held: { frame: GameFrame; roundPhase: string | null } | null = null;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  readonly #check: Check<typeof GsiPayload> = compiledCheck(GsiPayload);
  readonly #adr: AdrTracker;
  #live: GameLive = EMPTY_LIVE;
  #status: GameStatus;
  #statusSentAt = 0;
  #timer: NodeJS.Timeout | null = null;
  /** The map and round count the sides were last settled at (null: a new map, nothing to swap from). */
  #sidesAt: { map: string; round: number } | null = null;
  #pick: number | null = null;
  #dialect: ConsoleDialect = 'cs2';
  #refusalReportedAt = Number.NEGATIVE_INFINITY;
  readonly #counters: FrameCounters = { parsed: 0, refusedUnread: 0 };

  constructor(options: GameDataOptions) {
    this.#hud = options.hud;
    this.#hub = options.hub;
    this.#token = options.token;
    this.#expected = expectedToken(options.token);
    this.#slotNumbering = options.slotNumbering;
    this.#storage = options.storage;
    this.#timeoutMs = options.receivingTimeoutMs ?? RECEIVING_TIMEOUT_MS;
    this.#now = options.now ?? Date.now;
    this.#adr = new AdrTracker(this.#hud.snapshot('host').context.mapFigures);
    this.#hub.emitter.on('event', this.#onHubEvent);
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
    };
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
    return this.#pick ?? this.#live.observed?.slot ?? null;
  }

  playerInSlot(slot: number): GamePlayer | null {
    for (const player of Object.values(this.#live.players)) if (player.slot === slot) return player;
    return null;
  }

  pickStatsPlayer(slot: number | null): void {
    this.#pick = slot;
  }

  /** The console commands of the game that sends the frames: CS:GO's up to its last build, else CS2's. */
  consoleDialect(): ConsoleDialect {
    return this.#dialect;
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
    const frame = parseFrame(body, numbering.numbering);
    const now = this.#now();
    const version = body.provider?.version;
    this.#dialect = version !== undefined && version <= LAST_CSGO_VERSION ? 'csgo' : 'cs2';
    // The observer's director scores every frame (ignored while it is off); a cut it makes goes to
    // the game from its own console actor, so nothing here waits for the game.
    const direct = () =>
      !this.#hud.snapshot('observer').matches({ observer: 'disabled' }) &&
      this.#hud.send('observer', {
        type: 'observer.frame',
        frame: toDirectorFrame(body as RawGsiFrame, {
          now,
          hudSlot: (slot) => hudSlot(slot, numbering.numbering),
        }),
      });
    this.#keepReceiving();
    if (!frame.spectator) {
      this.#hub.batch(() => {
        this.#markReceiving();
        direct();
      });
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
    const notes: string[] = [];
    let seriesMap: number | null = null;
    const roundPhase = body.round?.phase ?? null;
    // While storage fails, what lasts is held, not applied then rolled back by the failed write
    // (a flip on the HUD each way, per frame): the roster stays as saved, and the HUD state's
    // `storage` says why. It is applied once storage works again (#onHubEvent).
    const lasting = this.#storage().ok;
    if (frame.map) {
      this.#adr.observe({
        map: frame.map.name,
        round: frame.map.round,
        roundPhase,
        mapPhase: frame.map.phase,
        damage: frame.players.map((player) => [player.steamid, player.roundDamage] as const),
      });
    }
    this.#hub.batch(() => {
      this.#markReceiving();
      direct();
      if (lasting) seriesMap = this.#applyLasting(frame, roundPhase, notes);
    });
    this.#held = lasting ? null : { frame, roundPhase };
    if (!lasting) notes.push(HELD_NOTE);
    this.#publishLive(frame);
    this.#setStatus(
      {
        ...this.#arrived(source, now, numbering),
        problem: null,
        message: `receiving from ${source}`,
        ...(lasting ? { seriesMap } : {}),
        notes,
      },
      now,
    );
  }

  /**
   * What a frame changes that lasts (and is saved): the roster, ADR's figures, the sides and the
   * map's score. Inside a hub batch; the series map in play, or null.
   */
  #applyLasting(frame: GameFrame, roundPhase: string | null, notes: string[]): number | null {
    // Only a new roster is sent: the host's guard would ignore the same one, after the cost of an
    // event through the actor system, ten to twenty times a second.
    if (!sameRoster(this.#hud.snapshot('host').context.roster, frame.players)) {
      this.#hud.send('host', { type: 'host.roster', roster: rosterOfFrame(frame) });
    }
    this.#saveFigures();
    if (!frame.map) return null;
    this.#settleSides(frame, roundPhase);
    return this.#recordScore(frame, notes);
  }

  /** "Receiving" in the HUD state, sent only when it was not (once per stretch of frames, not per frame). */
  #markReceiving(): void {
    if (!this.#hud.snapshot('host').context.gameReceiving) {
      this.#hud.send('host', { type: 'host.gameReceiving', receiving: true });
    }
  }

  /** Storage works again: the last frame's lasting changes, held while it failed, are applied now. */
  readonly #onHubEvent = (message: EventMessage): void => {
    if (!this.#held || message.event !== 'hud.state') return;
    if ((message.data as { storage?: StorageStatus }).storage?.ok !== true) return;
    // After the commit that announced it, not inside it: a batch here would commit in the middle of
    // that commit's events.
    queueMicrotask(() => {
      const held = this.#held;
      if (!held || !this.#storage().ok) return;
      this.#held = null;
      const notes: string[] = [];
      let seriesMap: number | null = null;
      this.#hub.batch(() => {
        seriesMap = this.#applyLasting(held.frame, held.roundPhase, notes);
      });
      this.#setStatus({ seriesMap, notes });
    });
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
    this.#hub.emitter.off('event', this.#onHubEvent);
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.emitter.all.clear();
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

  /** The sides: by the team names when they match team A and team B, else swapped at each half. */
  #settleSides(frame: GameFrame, roundPhase: string | null): void {
    const map = frame.map;
    if (!map) return;
    const match = this.#hud.snapshot('match').context;
    const named = sideByNames(match, map.ctName, map.tName);
    // The count moves at a round's end; the teams change sides when the next round starts.
    const started = roundPhase === null || ROUND_STARTED.has(roundPhase);
    const previous = this.#sidesAt?.map === map.name ? this.#sidesAt : null;
    if (named) {
      if (named !== match.teamASide) this.#hud.send('match', { type: 'match.sides.set', teamASide: named });
    } else if (previous && started && sideChangesBetween(previous.round, map.round) % 2 === 1) {
      this.#hud.send('match', { type: 'match.sides.swap' });
    }
    if (!previous || started) this.#sidesAt = { map: map.name, round: map.round };
  }

  /** The live score onto the series map in play; at game over its final score and finished. */
  #recordScore(frame: GameFrame, notes: string[]): number | null {
    const map = frame.map;
    if (!map) return null;
    const match = this.#hud.snapshot('match').context;
    const name = normalizeMapName(map.name);
    const index = name === null ? -1 : match.maps.findIndex((entry) => entry.map === name);
    const entry = match.maps[index];
    if (!entry) {
      const label = name ? mapLabel(name) : map.name;
      notes.push(
        match.maps.length === 0
          ? `the series has no maps yet: the score of ${label} is not recorded`
          : `${label} is not in the series: its score is not recorded`,
      );
      return null;
    }
    if (!SCORED.has(map.phase)) return index + 1;
    const aOnCt = match.teamASide === 'CT';
    // The series records 0 to 99 (the payload already refuses a team score below 0 or above 999).
    const scoreA = Math.min(99, aOnCt ? map.ctScore : map.tScore);
    const scoreB = Math.min(99, aOnCt ? map.tScore : map.ctScore);
    const sameScore = entry.scoreA === scoreA && entry.scoreB === scoreB;
    if (map.phase === 'gameover') {
      if (entry.finished && sameScore) return index + 1;
      if (scoreA === scoreB) {
        notes.push(`${mapLabel(entry.map)} ended ${scoreA}-${scoreB}: a draw is not recorded as finished`);
        return index + 1;
      }
      this.#hud.send('match', { type: 'match.mapResult.set', index, scoreA, scoreB, finished: true });
    } else if (entry.finished) {
      notes.push(`map ${index + 1} (${mapLabel(entry.map)}) is finished: the live score is not recorded`);
    } else if (!sameScore) {
      this.#hud.send('match', { type: 'match.mapResult.set', index, scoreA, scoreB });
    }
    return index + 1;
  }

  /**
   * ADR's figures to the host, which saves them: they are a new object only when a round is over or
   * the map changed, so this is a write once a round, never one per frame.
   */
  #saveFigures(): void {
    const figures = this.#adr.figures;
    if (figures !== this.#hud.snapshot('host').context.mapFigures) {
      this.#hud.send('host', { type: 'host.mapFigures', figures });
    }
  }

  #publishLive(frame: GameFrame): void {
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
          }
        : null,
      observed: frame.observedSteamid
        ? { steamid: frame.observedSteamid, slot: slotOf(frame.observedSteamid) }
        : null,
      // `adr` first, then the frame's fields: V8 gives `{ ...player, adr }` (a copy, then one more
      // field) a shape the message's serialiser reads three times slower (38 vs 12 µs a frame,
      // docs/performance.md). The order on the wire is the schema's either way.
      players: Object.fromEntries(
        frame.players.map((player) => [player.steamid, { adr: this.#adr.adrOf(player.steamid), ...player }]),
      ),
      grenades: frame.grenades,
    };
    const patch = diffLive(this.#live, next);
    this.#live = next;
    if (patch) this.emitter.emit('message', { type: 'game', now: this.#now(), full: false, live: patch });
  }

  /** The status; sent at once when what it says changes, else at most every STATUS_EVERY_MS. */
  #setStatus(change: Partial<GameStatus>, now = this.#now()): void {
    const before = this.#status;
    const next = { ...before, ...change };
    this.#status = next;
    if (sameStatusMeaning(next, before) && now - this.#statusSentAt < STATUS_EVERY_MS) return;
    this.#statusSentAt = now;
    this.emitter.emit('message', { type: 'game', now, full: false, status: next });
  }

  /** "Receiving" ends RECEIVING_TIMEOUT_MS after the last frame: one timer, pushed back per frame. */
  #keepReceiving(): void {
    if (this.#timer) {
      this.#timer.refresh();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#hub.batch(() => this.#hud.send('host', { type: 'host.gameReceiving', receiving: false }));
      const problem: GameProblem = 'stopped';
      const seconds = Math.round(this.#timeoutMs / 100) / 10;
      this.#setStatus({
        receiving: false,
        problem,
        message: `no frame for ${seconds} s: is the game running and spectating?`,
      });
    }, this.#timeoutMs);
    this.#timer.unref();
  }
}
