/**
 * What changed in the live view between two frames, compared field by field. A frame comes up to
 * 20 times a second and usually moves a few fields of each player (position, facing, the clock): a
 * typed comparison that stops at the first difference costs a fraction of a generic deep one.
 * Each list of fields is checked against its type, so a field added to the protocol and not here
 * fails to compile instead of going unsent (a player's comparison: src/protocol/game-compare.ts).
 */
import type {
  GameGrenade,
  GameKill,
  GameKillPlayer,
  GameLive,
  GameLivePatch,
  GamePlayer,
  GameStatus,
} from '../protocol/game.ts';
import { both, sameFields, sameList, samePlayer, samePoint, scalars } from '../protocol/game-compare.ts';

type LiveMap = NonNullable<GameLive['map']>;
type Round = NonNullable<GameLive['round']>;
type Bomb = NonNullable<GameLive['bomb']>;
type Observed = NonNullable<GameLive['observed']>;

const MAP_FIELDS = scalars<LiveMap>()([
  'name',
  'phase',
  'round',
  'ctScore',
  'tScore',
  'ctName',
  'tName',
  'ctLosses',
  'tLosses',
  'ctTimeouts',
  'tTimeouts',
]);
const ROUND_FIELDS = scalars<Round>()(['phase', 'clock', 'winner', 'reason']);
const BOMB_FIELDS = scalars<Omit<Bomb, 'position'>>()([
  'state',
  'countdown',
  'playerSlot',
  'explodesIn',
  'defuseIn',
  'defuseSeconds',
]);
const OBSERVED_FIELDS = scalars<Observed>()(['steamid', 'slot']);
const GRENADE_FIELDS = scalars<Omit<GameGrenade, 'position' | 'flames'>>()([
  'id',
  'type',
  'owner',
  'lifetime',
  'effect',
]);
/** The status's fields that say something: not the count and time of the last frame, which move with each. */
const STATUS_MEANING = scalars<Omit<GameStatus, 'lastFrameAt' | 'frames' | 'notes' | 'hlae'>>()([
  'receiving',
  'source',
  'problem',
  'message',
  'slotNumbering',
  'numberingFrom',
  'seriesMap',
]);

const sameMap = both((a: LiveMap, b: LiveMap) => sameFields(a, b, MAP_FIELDS));
const sameRound = both((a: Round, b: Round) => sameFields(a, b, ROUND_FIELDS));
const sameBomb = both(
  (a: Bomb, b: Bomb) => sameFields(a, b, BOMB_FIELDS) && samePoint(a.position, b.position),
);
const sameObserved = both((a: Observed, b: Observed) => sameFields(a, b, OBSERVED_FIELDS));
const sameGrenade = (a: GameGrenade, b: GameGrenade) =>
  sameFields(a, b, GRENADE_FIELDS) &&
  samePoint(a.position, b.position) &&
  sameList(a.flames, b.flames, samePoint);

const sameName = (a: GameKillPlayer | null, b: GameKillPlayer | null) => a?.name === b?.name;
const sameKill = (a: GameKill, b: GameKill) =>
  a.id === b.id &&
  sameName(a.killer, b.killer) &&
  sameName(a.victim, b.victim) &&
  sameName(a.assister, b.assister);

/** Whether two statuses say the same, whatever the count and the time of the last frame. */
export const sameStatusMeaning = (a: GameStatus, b: GameStatus): boolean =>
  sameFields(a, b, STATUS_MEANING) &&
  sameList(a.notes, b.notes, (x, y) => x === y) &&
  // Replaced as a whole when it changes (game-data.ts): a new link or a death goes out at once.
  a.hlae === b.hlae;

/** The parts of `next` that differ from `previous`; players by steamid, null for one who left. */
export function diffLive(previous: GameLive, next: GameLive): GameLivePatch | null {
  const patch: GameLivePatch = {};
  if (!sameMap(previous.map, next.map)) patch.map = next.map;
  if (!sameRound(previous.round, next.round)) patch.round = next.round;
  if (!sameBomb(previous.bomb, next.bomb)) patch.bomb = next.bomb;
  if (!sameObserved(previous.observed, next.observed)) patch.observed = next.observed;
  if (!sameList(previous.grenades, next.grenades, sameGrenade)) patch.grenades = next.grenades;
  // An entry's facts never change once made, its names do (a database change): same ids, same names.
  if (!sameList(previous.killfeed, next.killfeed, sameKill)) patch.killfeed = next.killfeed;
  // Own properties only: a steamid is a key of the game's JSON, whatever it spells.
  const players: Array<[string, GamePlayer | null]> = [];
  for (const steamid of Object.keys(next.players)) {
    const player = next.players[steamid] as GamePlayer;
    const before = Object.hasOwn(previous.players, steamid) ? previous.players[steamid] : undefined;
    if (!samePlayer(before, player)) players.push([steamid, player]);
  }
  for (const steamid of Object.keys(previous.players)) {
    if (!Object.hasOwn(next.players, steamid)) players.push([steamid, null]);
  }
  if (players.length > 0) patch.players = Object.fromEntries(players);
  return Object.keys(patch).length > 0 ? patch : null;
}
