/**
 * The database of teams and players (issue 34, docs/teams-and-players.md): the rules of saving,
 * removing and importing them, the lookups the live game data and set_teams use. What lasts is its
 * document; writing it is given (src/persistence/teams-file.ts), and a change counts only once the
 * write is done: a refused or failed change leaves the database as it was.
 */
import { randomBytes } from 'node:crypto';
import { TAG_LENGTH } from '../../machines/team-logo.ts';
import type { ImportedRosters } from '../import/rosters.ts';
import { invalidPayload, ServiceError } from '../protocol/errors.ts';
import type {
  LiveIdentity,
  PlayerRecord,
  PlayerSave,
  RostersOffer,
  TeamRecord,
  TeamSave,
  TeamsDocument,
  TeamsImportCount,
  TeamView,
} from '../protocol/teams.ts';
import {
  MEDIA_ADDRESS_PATTERN,
  TEAMS_FORMAT,
  TEAMS_FORMAT_VERSION,
  TEAMS_LIMITS,
} from '../protocol/teams.ts';

export interface TeamsDatabaseIo {
  /** The rosters of a FACEIT room or an HLTV match page (src/import/rosters.ts). */
  readRosters(source: RosterSource): Promise<ImportedRosters>;
  /** Writes the whole document durably; rejects (an errno error) when the disk refuses. */
  write(document: TeamsDocument): Promise<void>;
  /** Fetches an image at an http(s) address once into the media store: its address, /media/<id> (ServiceError in words). */
  fetchImage(url: string): Promise<string>;
}

export const emptyTeamsDocument = (): TeamsDocument => ({
  format: TEAMS_FORMAT,
  version: TEAMS_FORMAT_VERSION,
  teams: [],
  players: [],
});

const MEDIA_ADDRESS = new RegExp(MEDIA_ADDRESS_PATTERN);
const fold = (text: string) => text.trim().toLocaleLowerCase('en');
const newId = (kind: 't' | 'p') => `${kind}-${randomBytes(6).toString('base64url')}`;

let regionNames: Intl.DisplayNames | undefined;
/** An ISO 3166-1 alpha-2 code the platform's ICU data knows (so "XX" is refused), upper case. */
export function countryCode(code: string | null, field: string): string | null {
  if (code === null) return null;
  const upper = code.toUpperCase();
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  if (!/^[A-Z]{2}$/.test(upper) || regionNames.of(upper) === undefined) {
    throw invalidPayload(`${field}: "${code}" is not an ISO 3166 country code (SE, UA, CN …)`);
  }
  return upper;
}

export type RosterSource = { url?: string; platformMatchId?: string };

/** What save_rosters reports. */
export interface RostersSaved extends TeamsImportResult {
  unconfirmed: string[];
  imagesFailed: string[];
}

/** The counts an import reports, by kind. */
export interface TeamsImportResult {
  teams: TeamsImportCount;
  players: TeamsImportCount;
}

type Listener = () => void;

export class TeamsDatabase {
  #doc: TeamsDocument;
  #teamViews: TeamView[] = [];
  #bySteamid = new Map<string, PlayerRecord>();
  #identities = new Map<string, LiveIdentity>();
  /** The change in progress: the next starts from what it left. */
  #queue: Promise<unknown> = Promise.resolve();
  readonly #io: TeamsDatabaseIo;
  readonly #listeners = new Set<Listener>();

  constructor(document: TeamsDocument, io: TeamsDatabaseIo) {
    this.#io = io;
    this.#doc = document;
    this.#index();
  }

  document(): TeamsDocument {
    return this.#doc;
  }

  teams(): readonly TeamView[] {
    return this.#teamViews;
  }

  players(): readonly PlayerRecord[] {
    return this.#doc.players;
  }

  /** Who the game's player `steamid` is on air; null for one the database does not know. O(1): read per frame. */
  identityOf(steamid: string): LiveIdentity | null {
    return this.#identities.get(steamid) ?? null;
  }

  /** A team by its id, its name or (when only one team has it) its tag, ignoring case; null for none. */
  findTeam(ref: string): TeamView | null {
    const byId = this.#teamViews.find((team) => team.id === ref);
    if (byId) return byId;
    const key = fold(ref);
    const byName = this.#teamViews.find((team) => fold(team.name) === key);
    if (byName) return byName;
    const byTag = this.#teamViews.filter((team) => team.tag !== null && fold(team.tag) === key);
    return byTag.length === 1 ? (byTag[0] as TeamView) : null;
  }

  /**
   * A match's team as set_teams gives it, completed from the saved team it names (by name or tag):
   * the saved name, and its tag and logo where the payload gives none. A team not saved is as given.
   */
  teamForMatch<T extends { name: string; tag?: string; logo?: string }>(given: T): T {
    const saved = this.findTeam(given.name);
    if (!saved) return given;
    return {
      ...given,
      name: saved.name,
      ...(given.tag === undefined && saved.tag !== null ? { tag: saved.tag } : {}),
      ...(given.logo === undefined && saved.logo !== null ? { logo: saved.logo } : {}),
    };
  }

  player(id: string): PlayerRecord | null {
    return this.#doc.players.find((player) => player.id === id) ?? null;
  }

  /** Called after every change that was saved. */
  onChange(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async saveTeam(save: TeamSave): Promise<TeamView> {
    const tag = noneIfEmpty(save.tag);
    if (tag && (tag.length < TAG_LENGTH.min || !/\S/.test(tag))) {
      throw invalidPayload(`tag: ${TAG_LENGTH.min} to ${TAG_LENGTH.max} characters, not only spaces`);
    }
    const coach = noneIfEmpty(save.coach);
    const logo = await this.#image(save.logo, 'logo');
    const id = await this.#change((doc) => {
      const existing = save.id === undefined ? null : doc.teams.find((team) => team.id === save.id);
      if (save.id !== undefined && !existing) throw notFound(`no team ${save.id}: GET /api/teams lists them`);
      if (!existing && save.name === undefined) throw invalidPayload('a new team needs a name');
      const base: TeamRecord = existing ?? { id: newId('t'), name: '', tag: null, logo: null, country: null };
      const team: TeamRecord = {
        ...base,
        ...(save.name !== undefined ? { name: save.name.trim() } : {}),
        ...(tag !== undefined ? { tag } : {}),
        ...(logo !== undefined ? { logo } : {}),
        ...(save.country !== undefined ? { country: countryCode(noneIfEmpty(save.country), 'country') } : {}),
      };
      const clash = doc.teams.find((other) => other.id !== team.id && fold(other.name) === fold(team.name));
      if (clash) throw conflictWith(`a team named "${clash.name}" is saved already (${clash.id})`);
      const teams = existing
        ? doc.teams.map((other) => (other.id === team.id ? team : other))
        : [...doc.teams, team];
      if (teams.length > TEAMS_LIMITS.teams) {
        throw conflictWith(`the database holds at most ${TEAMS_LIMITS.teams} teams: remove one first`);
      }
      const players = withLineup(doc.players, team.id, save.lineup, coach);
      return { next: { ...doc, teams, players }, value: team.id };
    });
    return this.#teamViews.find((team) => team.id === id) as TeamView;
  }

  async removeTeam(ref: string): Promise<TeamView> {
    const team = this.findTeam(ref);
    if (!team) throw notFound(`no team "${ref}": GET /api/teams lists them`);
    await this.#change((doc) => ({
      next: {
        ...doc,
        teams: doc.teams.filter((other) => other.id !== team.id),
        players: doc.players.map((player) => (player.team === team.id ? { ...player, team: null } : player)),
      },
      value: null,
    }));
    return team;
  }

  async savePlayer(save: PlayerSave): Promise<PlayerRecord> {
    const photo = await this.#image(save.photo, 'photo');
    return this.#change((doc) => {
      const existing = save.id === undefined ? null : doc.players.find((player) => player.id === save.id);
      if (save.id !== undefined && !existing)
        throw notFound(`no player ${save.id}: GET /api/players lists them`);
      if (!existing && save.name === undefined)
        throw invalidPayload('a new player needs a name (the on-air name)');
      let team: string | null | undefined;
      if (save.team !== undefined) {
        team = save.team === '' ? null : (this.findTeam(save.team)?.id ?? null);
        if (save.team !== '' && team === null) throw notFound(`no team "${save.team}": save the team first`);
      }
      const base: PlayerRecord = existing ?? {
        id: newId('p'),
        steamid: null,
        name: '',
        realName: '',
        country: null,
        photo: null,
        team: null,
        role: 'player',
      };
      const player: PlayerRecord = {
        ...base,
        ...(save.steamid !== undefined ? { steamid: noneIfEmpty(save.steamid) } : {}),
        ...(save.name !== undefined ? { name: save.name.trim() } : {}),
        ...(save.realName !== undefined ? { realName: save.realName.trim() } : {}),
        ...(save.country !== undefined ? { country: countryCode(noneIfEmpty(save.country), 'country') } : {}),
        ...(photo !== undefined ? { photo } : {}),
        ...(team !== undefined ? { team } : {}),
        ...(save.role !== undefined ? { role: save.role } : {}),
      };
      const clash =
        player.steamid !== null &&
        doc.players.find((other) => other.id !== player.id && other.steamid === player.steamid);
      if (clash)
        throw conflictWith(`SteamID64 ${player.steamid} is saved already as "${clash.name}" (${clash.id})`);
      const players = existing
        ? doc.players.map((other) => (other.id === player.id ? player : other))
        : [...doc.players, player];
      if (players.length > TEAMS_LIMITS.players) {
        throw conflictWith(`the database holds at most ${TEAMS_LIMITS.players} players: remove one first`);
      }
      return { next: { ...doc, players }, value: player };
    });
  }

  async removePlayer(ref: string): Promise<PlayerRecord> {
    const player = this.#doc.players.find((entry) => entry.id === ref || entry.steamid === ref);
    if (!player) throw notFound(`no player "${ref}" (an id or a SteamID64): GET /api/players lists them`);
    await this.#change((doc) => ({
      next: { ...doc, players: doc.players.filter((entry) => entry.id !== player.id) },
      value: null,
    }));
    return player;
  }

  /**
   * Merges a document (an export, a CSV read into one, an import's rosters): a team is the saved one
   * of the same id, else of the same name; a player of the same id, else of the same SteamID64, else
   * (neither given) of the same name in the same team. Matched records take the document's values;
   * the others are added, under their own id when it is free. The same document twice changes nothing.
   */
  async importDocument(incoming: TeamsDocument): Promise<TeamsImportResult> {
    for (const [i, team] of incoming.teams.entries()) countryCode(team.country, `teams[${i}].country`);
    for (const [i, player] of incoming.players.entries())
      countryCode(player.country, `players[${i}].country`);
    return this.#change((doc) => {
      const result: TeamsImportResult = { teams: count(), players: count() };
      const teams = [...doc.teams];
      const teamIds = new Map<string, string>();
      const ids = new Set([...doc.teams.map((t) => t.id), ...doc.players.map((p) => p.id)]);
      const freeId = (id: string, kind: 't' | 'p') => {
        let next = id;
        while (ids.has(next)) next = newId(kind);
        ids.add(next);
        return next;
      };
      for (const team of incoming.teams) {
        const at = teams.findIndex((saved) => saved.id === team.id);
        const index = at >= 0 ? at : teams.findIndex((saved) => fold(saved.name) === fold(team.name));
        const normal = { ...team, country: team.country?.toUpperCase() ?? null };
        if (index < 0) {
          const added = { ...normal, id: freeId(team.id, 't') };
          teams.push(added);
          teamIds.set(team.id, added.id);
          result.teams.added++;
          continue;
        }
        const saved = teams[index] as TeamRecord;
        teamIds.set(team.id, saved.id);
        const merged = { ...normal, id: saved.id };
        if (sameRecord(saved, merged)) result.teams.unchanged++;
        else {
          teams[index] = merged;
          result.teams.changed++;
        }
      }
      const players = [...doc.players];
      for (const player of incoming.players) {
        const team = player.team === null ? null : (teamIds.get(player.team) ?? null);
        if (player.team !== null && team === null) {
          throw invalidPayload(
            `player "${player.name}" names team ${player.team}, which the import does not hold`,
          );
        }
        const normal = { ...player, team, country: player.country?.toUpperCase() ?? null };
        let index = players.findIndex((saved) => saved.id === player.id);
        if (index < 0 && player.steamid !== null)
          index = players.findIndex((saved) => saved.steamid === player.steamid);
        if (index < 0 && player.steamid === null) {
          index = players.findIndex(
            (saved) =>
              saved.steamid === null && saved.team === team && fold(saved.name) === fold(player.name),
          );
        }
        if (index < 0) {
          players.push({ ...normal, id: freeId(player.id, 'p') });
          result.players.added++;
          continue;
        }
        const saved = players[index] as PlayerRecord;
        const merged = { ...normal, id: saved.id };
        if (sameRecord(saved, merged)) result.players.unchanged++;
        else {
          players[index] = merged;
          result.players.changed++;
        }
      }
      if (teams.length > TEAMS_LIMITS.teams || players.length > TEAMS_LIMITS.players) {
        throw conflictWith(
          `the database holds at most ${TEAMS_LIMITS.teams} teams and ${TEAMS_LIMITS.players} players: the import would make ${teams.length} and ${players.length}`,
        );
      }
      const steamids = new Set<string>();
      for (const player of players) {
        if (player.steamid === null) continue;
        if (steamids.has(player.steamid))
          throw conflictWith(`SteamID64 ${player.steamid} is in the import twice`);
        steamids.add(player.steamid);
      }
      const changed =
        result.teams.added + result.teams.changed + result.players.added + result.players.changed;
      return { next: changed === 0 ? doc : { ...doc, teams, players }, value: result };
    });
  }

  /** The rosters of a match, each team and player with the saved one it matches. Changes nothing. */
  async readRosters(source: RosterSource): Promise<RostersOffer> {
    const read = await this.#io.readRosters(source);
    return {
      provider: read.provider,
      matchId: read.matchId,
      teams: read.teams.map((team) => this.#offer(team)),
    };
  }

  #offer(team: ImportedRosters['teams'][number]): RostersOffer['teams'][number] {
    const saved = this.findTeam(team.name);
    return {
      ...team,
      saved: saved ? { id: saved.id, name: saved.name } : null,
      players: team.players.map((player) => {
        const bySteamid = player.steamid === null ? undefined : this.#bySteamid.get(player.steamid);
        const named = (entry: PlayerRecord) => fold(entry.name) === fold(player.name);
        const inTeam = saved
          ? this.#doc.players.find((entry) => entry.team === saved.id && named(entry))
          : undefined;
        const elsewhere = this.#doc.players.find(named);
        const [match, by] = bySteamid
          ? [bySteamid, 'steamid' as const]
          : inTeam
            ? [inTeam, 'team' as const]
            : [elsewhere, 'name' as const];
        return { ...player, saved: match ? { id: match.id, name: match.name, by } : null };
      }),
    };
  }

  /**
   * Saves the rosters of a match: a team is the saved one of its name (or tag), else new; a player
   * the saved one of its SteamID64, or of its name when `confirm` names him (else he is left out and
   * reported), else new. A saved record keeps what it has (the on-air name above all) and takes only
   * what it lacks; photos and logos it lacks are fetched once (a failed fetch leaves it without, and
   * says why). The same rosters twice change nothing.
   */
  async saveRosters(source: RosterSource, confirm: readonly string[]): Promise<RostersSaved> {
    const offer = await this.readRosters(source);
    const confirmed = new Set(confirm.map(fold));
    const imagesFailed: string[] = [];
    const images = new Map<string, string | null>();
    const fetchOnce = async (url: string | null, what: string) => {
      if (url === null || images.has(url)) return;
      try {
        images.set(url, await this.#io.fetchImage(url));
      } catch (error) {
        images.set(url, null);
        imagesFailed.push(`${what}: ${(error as Error).message}`);
      }
    };
    const unconfirmed: string[] = [];
    const wanted: Array<{
      team: (typeof offer.teams)[number];
      players: (typeof offer.teams)[number]['players'];
    }> = [];
    for (const team of offer.teams) {
      const players = team.players.filter((player) => {
        if (player.saved?.by !== 'name' || confirmed.has(fold(player.name))) return true;
        unconfirmed.push(player.name);
        return false;
      });
      wanted.push({ team, players });
      const savedTeam = team.saved ? this.findTeam(team.saved.id) : null;
      if (!savedTeam?.logo) await fetchOnce(team.logo, `the logo of ${team.name}`);
      await Promise.all(
        players.map((player) => {
          const saved = player.saved ? this.player(player.saved.id) : null;
          return saved?.photo ? undefined : fetchOnce(player.photo, `the photo of ${player.name}`);
        }),
      );
    }
    const stored = (url: string | null) => (url === null ? null : (images.get(url) ?? null));
    const result = await this.#change((doc) => {
      const counts: TeamsImportResult = { teams: count(), players: count() };
      let teams = [...doc.teams];
      let players = [...doc.players];
      const tally = (kind: 'teams' | 'players', before: object | undefined, after: object) => {
        if (!before) counts[kind].added++;
        else if (sameRecord(before, after)) counts[kind].unchanged++;
        else counts[kind].changed++;
      };
      for (const { team, players: offered } of wanted) {
        const before = team.saved ? teams.find((entry) => entry.id === team.saved?.id) : undefined;
        const record: TeamRecord = before
          ? { ...before, logo: before.logo ?? stored(team.logo), country: before.country ?? team.country }
          : { id: newId('t'), name: team.name, tag: null, logo: stored(team.logo), country: team.country };
        tally('teams', before, record);
        teams = before ? teams.map((entry) => (entry.id === record.id ? record : entry)) : [...teams, record];
        for (const player of offered) {
          const was = player.saved ? players.find((entry) => entry.id === player.saved?.id) : undefined;
          const next: PlayerRecord = was
            ? {
                ...was,
                steamid: was.steamid ?? player.steamid,
                realName: was.realName || player.realName,
                country: was.country ?? player.country,
                photo: was.photo ?? stored(player.photo),
                team: record.id,
              }
            : {
                id: newId('p'),
                steamid: player.steamid,
                name: player.name.slice(0, 32),
                realName: player.realName.slice(0, 64),
                country: player.country,
                photo: stored(player.photo),
                team: record.id,
                role: 'player',
              };
          tally('players', was, next);
          players = was ? players.map((entry) => (entry.id === next.id ? next : entry)) : [...players, next];
        }
      }
      const changed =
        counts.teams.added + counts.teams.changed + counts.players.added + counts.players.changed;
      return { next: changed === 0 ? doc : { ...doc, teams, players }, value: counts };
    });
    return { ...result, unconfirmed, imagesFailed };
  }

  /** An image field as given: undefined (not given), null (none), a stored one, or an address fetched now. */
  async #image(given: string | undefined, field: string): Promise<string | null | undefined> {
    if (given === undefined || given === '') return noneIfEmpty(given);
    if (MEDIA_ADDRESS.test(given)) return given;
    let url: URL;
    try {
      url = new URL(given);
    } catch {
      throw invalidPayload(
        `${field}: "${given}" is neither an uploaded image (/media/<id>) nor an http(s) address`,
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw invalidPayload(`${field}: only http(s) addresses are fetched, not ${url.protocol}`);
    }
    return this.#io.fetchImage(url.href);
  }

  /**
   * One change, after the one before it: `make` reads the document and answers the next one (or
   * throws, and nothing changes); the next is written, and only then is it the database's.
   */
  #change<T>(make: (doc: TeamsDocument) => { next: TeamsDocument; value: T }): Promise<T> {
    const run = this.#queue.then(async () => {
      const { next, value } = make(this.#doc);
      if (next === this.#doc) return value;
      try {
        await this.#io.write(next);
      } catch (error) {
        if (error instanceof ServiceError) throw error;
        throw new ServiceError(
          'storage_failed',
          `the teams and players were not saved: ${(error as Error).message}; nothing changed`,
        );
      }
      this.#doc = next;
      this.#index();
      for (const listener of this.#listeners) listener();
      return value;
    });
    this.#queue = run.catch(() => {});
    return run;
  }

  #index(): void {
    const { teams, players } = this.#doc;
    this.#teamViews = teams.map((team) => {
      const own = players.filter((player) => player.team === team.id);
      return {
        ...team,
        lineup: own.filter((player) => player.role === 'player').map((player) => player.id),
        coach: own.find((player) => player.role === 'coach')?.id ?? null,
      };
    });
    this.#bySteamid = new Map();
    this.#identities = new Map();
    for (const player of players) {
      if (player.steamid === null) continue;
      this.#bySteamid.set(player.steamid, player);
      this.#identities.set(player.steamid, {
        playerId: player.id,
        name: player.name,
        realName: player.realName,
        country: player.country,
        photo: player.photo,
      });
    }
  }
}

/** The players after a team's lineup and coach were set (undefined: left as they are). */
function withLineup(
  players: PlayerRecord[],
  teamId: string,
  lineup: readonly string[] | undefined,
  coach: string | null | undefined,
): PlayerRecord[] {
  if (lineup === undefined && coach === undefined) return players;
  const known = new Set(players.map((player) => player.id));
  for (const id of [...(lineup ?? []), ...(coach ? [coach] : [])]) {
    if (!known.has(id))
      throw notFound(`no player ${id}: save the player first (GET /api/players lists them)`);
  }
  if (coach && lineup?.includes(coach))
    throw invalidPayload(`player ${coach} cannot be both in the lineup and the coach`);
  const inLineup = new Set(lineup ?? []);
  let next = players.map((player) => {
    if (lineup !== undefined) {
      if (inLineup.has(player.id)) return { ...player, team: teamId, role: 'player' as const };
      if (player.team === teamId && player.role === 'player') return { ...player, team: null };
    }
    if (coach !== undefined) {
      if (player.id === coach) return { ...player, team: teamId, role: 'coach' as const };
      if (player.team === teamId && player.role === 'coach') return { ...player, team: null };
    }
    return player;
  });
  // The lineup's order is the database's order of its players: they move to the end, as listed.
  if (lineup !== undefined && lineup.length > 0) {
    const byId = new Map(next.map((player) => [player.id, player]));
    next = [
      ...next.filter((player) => !inLineup.has(player.id)),
      ...lineup.map((id) => byId.get(id) as PlayerRecord),
    ];
  }
  return next;
}

/** A payload's text as a record's value: empty is none. */
const noneIfEmpty = <T extends string | undefined>(text: T): T | null => (text === '' ? null : text);

const count = (): TeamsImportCount => ({ added: 0, changed: 0, unchanged: 0 });

function sameRecord<T extends object>(a: T, b: T): boolean {
  const keys = Object.keys(a) as (keyof T)[];
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

const notFound = (message: string) => new ServiceError('not_found', message);
const conflictWith = (message: string) => new ServiceError('conflict', message);
