/**
 * The database of teams and players on the wire (issue 34, docs/teams-and-players.md): what
 * GET /api/teams and GET /api/players answer, what save_team and save_player take, and the one
 * versioned document that is both the file in the data directory (teams.json) and the JSON export.
 * Browser-safe: TypeBox and machines/ only.
 */
import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import { TAG_LENGTH } from '../../machines/team-logo.ts';
import { MEDIA_ID_PATTERN, MEDIA_PATH } from './media.ts';
import { OneOf, strict } from './schemas.ts';

/** The document's name and version: a file or an export of another version is refused in words. */
export const TEAMS_FORMAT = 'hud-automation.teams';
export const TEAMS_FORMAT_VERSION = 1;

/** How much the database holds: a season of a league (64 teams of 5 to 7) many times over. */
export const TEAMS_LIMITS = { teams: 500, players: 5_000 } as const;

export const PLAYER_ROLES = ['player', 'coach'] as const;
export type PlayerRole = (typeof PLAYER_ROLES)[number];

/** A SteamID64 of an individual account (the game's `steamid`). */
export const STEAMID64_PATTERN = '^7656119[0-9]{10}$';
/** An ISO 3166-1 alpha-2 code, upper case (the server also takes lower case and writes it upper). */
export const COUNTRY_PATTERN = '^[A-Za-z]{2}$';
/** An id the database gave: `t-…` for a team, `p-…` for a player. */
export const RECORD_ID_PATTERN = '^[tp]-[A-Za-z0-9_-]{1,32}$';
/** A stored image's address on the application server. */
export const MEDIA_ADDRESS_PATTERN = `^${MEDIA_PATH}/${MEDIA_ID_PATTERN}$`;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const IdSchema = Type.String({ pattern: RECORD_ID_PATTERN, maxLength: 34 });
const CountrySchema = Nullable(
  Type.String({ pattern: COUNTRY_PATTERN, description: 'ISO 3166-1 alpha-2 code (SE, UA, CN …)' }),
);
const StoredImageSchema = Nullable(
  Type.String({ pattern: MEDIA_ADDRESS_PATTERN, description: 'A stored image: /media/<id>' }),
);
/**
 * An image as a client gives it: an uploaded one (/media/<id>), an http(s) address fetched once, or
 * empty for none. The payloads say "none" with an empty text, not null: a Companion button's text
 * field can send it.
 */
const GivenImageSchema = Type.String({
  maxLength: 2048,
  description:
    'An uploaded image (/media/<id>), an http(s) address the server fetches once into its media store, or empty for none',
});
const NameSchema = Type.String({ minLength: 1, maxLength: 32, pattern: '\\S' });
const TeamNameSchema = Type.String({ minLength: 1, maxLength: 64, pattern: '\\S' });
const TagSchema = Nullable(
  Type.String({ minLength: TAG_LENGTH.min, maxLength: TAG_LENGTH.max, pattern: '\\S' }),
);

/** A player as the database keeps it. */
export const PlayerRecordSchema = Type.Object(
  {
    id: IdSchema,
    steamid: Nullable(
      Type.String({ pattern: STEAMID64_PATTERN, description: 'SteamID64; null when unknown' }),
    ),
    name: Type.String({ ...NameSchema, description: 'The on-air name' }),
    realName: Type.String({ maxLength: 64, description: 'First and last name; empty when not known' }),
    country: CountrySchema,
    photo: StoredImageSchema,
    team: Nullable(Type.String({ ...IdSchema, description: 'The id of the team; null for none' })),
    role: OneOf(PLAYER_ROLES, { description: 'player, or coach (never shown as a player)' }),
  },
  strict,
);
export type PlayerRecord = Static<typeof PlayerRecordSchema>;

/**
 * The saved lineups of the match's two teams, as the versus scene shows them: the players (never the
 * coach) of the saved team each side's name names (any case), in the database's order; none for a
 * team not saved. A state stream: a change of the database or of the match's teams reaches the pages.
 */
export const LineupsSchema = Type.Object({
  A: Type.Array(PlayerRecordSchema),
  B: Type.Array(PlayerRecordSchema),
});
export type Lineups = Static<typeof LineupsSchema>;

/** A team as the database keeps it; its lineup is its players (their `team`), in the database's order. */
export const TeamRecordSchema = Type.Object(
  {
    id: IdSchema,
    name: TeamNameSchema,
    tag: TagSchema,
    logo: StoredImageSchema,
    country: CountrySchema,
  },
  strict,
);
export type TeamRecord = Static<typeof TeamRecordSchema>;

/** A team as GET /api/teams answers it: with its lineup and coach. */
export const TeamViewSchema = Type.Object(
  {
    ...TeamRecordSchema.properties,
    lineup: Type.Array(IdSchema, { description: 'The ids of its players (role player), in order' }),
    coach: Nullable(Type.String({ ...IdSchema, description: 'The id of its coach' })),
  },
  strict,
);
export type TeamView = Static<typeof TeamViewSchema>;

/** The file in the data directory and the JSON export: one document, versioned. */
export const TeamsDocumentSchema = Type.Object(
  {
    format: Type.Literal(TEAMS_FORMAT),
    version: Type.Literal(TEAMS_FORMAT_VERSION),
    teams: Type.Array(TeamRecordSchema, { maxItems: TEAMS_LIMITS.teams }),
    players: Type.Array(PlayerRecordSchema, { maxItems: TEAMS_LIMITS.players }),
  },
  strict,
);
export type TeamsDocument = Static<typeof TeamsDocumentSchema>;

/** save_player's payload: a new player without `id`, or the changes of a saved one with it. */
export const PlayerSaveSchema = Type.Object(
  {
    id: Type.Optional(IdSchema),
    steamid: Type.Optional(
      Type.String({ pattern: '^(7656119[0-9]{10})?$', description: 'SteamID64; empty for none' }),
    ),
    name: Type.Optional(Type.String({ ...NameSchema, description: 'The on-air name' })),
    realName: Type.Optional(PlayerRecordSchema.properties.realName),
    country: Type.Optional(
      Type.String({ pattern: '^([A-Za-z]{2})?$', description: 'ISO 3166-1 alpha-2 code; empty for none' }),
    ),
    photo: Type.Optional(GivenImageSchema),
    team: Type.Optional(
      Type.String({ maxLength: 64, description: "The team's id, name or tag; empty for none" }),
    ),
    role: Type.Optional(PlayerRecordSchema.properties.role),
  },
  { ...strict, minProperties: 1 },
);
export type PlayerSave = Static<typeof PlayerSaveSchema>;

/** save_team's payload: a new team without `id`, or the changes of a saved one with it. */
export const TeamSaveSchema = Type.Object(
  {
    id: Type.Optional(IdSchema),
    name: Type.Optional(TeamNameSchema),
    tag: Type.Optional(
      Type.String({
        maxLength: TAG_LENGTH.max,
        description: `Short tag, ${TAG_LENGTH.min} to ${TAG_LENGTH.max} characters; empty for none`,
      }),
    ),
    logo: Type.Optional(GivenImageSchema),
    country: Type.Optional(
      Type.String({ pattern: '^([A-Za-z]{2})?$', description: 'ISO 3166-1 alpha-2 code; empty for none' }),
    ),
    lineup: Type.Optional(
      Type.Array(IdSchema, {
        maxItems: 10,
        description: 'Its players by id, in order: they join it (and leave their team); the others leave it',
      }),
    ),
    coach: Type.Optional(Type.String({ maxLength: 34, description: 'Its coach by id; empty for none' })),
  },
  { ...strict, minProperties: 1 },
);
export type TeamSave = Static<typeof TeamSaveSchema>;

/** The formats of import_teams and export_teams. */
export const TEAMS_FILE_FORMATS = ['json', 'csv'] as const;
export type TeamsFileFormat = (typeof TEAMS_FILE_FORMATS)[number];

/** What an import changed: added, changed and unchanged records by kind. */
export const TeamsImportCountSchema = Type.Object(
  {
    added: Type.Integer({ minimum: 0 }),
    changed: Type.Integer({ minimum: 0 }),
    unchanged: Type.Integer({ minimum: 0 }),
  },
  strict,
);
export type TeamsImportCount = Static<typeof TeamsImportCountSchema>;

/**
 * Who a live player is, resolved on the server once per frame where the `game` view's players are
 * built: every on-air place reads `name` (the saved on-air name, else the game's).
 */
export interface LiveIdentity {
  /** The database's player id; null for a player the database does not know. */
  playerId: string | null;
  name: string;
  realName: string;
  country: string | null;
  photo: string | null;
}

// ---- Rosters from a FACEIT room or an HLTV match page (read_rosters, save_rosters) ----------------

/**
 * A saved record an offered one matches: by SteamID64 (sure), by name among the players of the team
 * it matched (the lineup the operator saved), or by name elsewhere (the operator confirms).
 */
const SavedMatchSchema = Nullable(
  Type.Object(
    {
      id: IdSchema,
      name: Type.String(),
      by: OneOf(['steamid', 'team', 'name'] as const, {
        description:
          "steamid; team: by name among the matched team's players; name: by name elsewhere, saved only once confirmed",
      }),
    },
    strict,
  ),
);

export const RosterPlayerOfferSchema = Type.Object(
  {
    name: Type.String({ description: 'The nickname the source prints' }),
    steamid: Nullable(
      Type.String({ description: 'SteamID64 (FACEIT game id); null when the source has none (HLTV)' }),
    ),
    realName: Type.String(),
    country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2, from the flag the source shows' })),
    photo: Nullable(
      Type.String({ description: "The source's photo or avatar address (fetched once on save)" }),
    ),
    saved: SavedMatchSchema,
  },
  strict,
);
export type RosterPlayerOffer = Static<typeof RosterPlayerOfferSchema>;

export const RosterTeamOfferSchema = Type.Object(
  {
    name: Type.String(),
    logo: Nullable(Type.String({ description: "The source's logo address (fetched once on save)" })),
    country: Nullable(Type.String()),
    saved: Nullable(Type.Object({ id: IdSchema, name: Type.String() }, strict)),
    players: Type.Array(RosterPlayerOfferSchema),
  },
  strict,
);
export type RosterTeamOffer = Static<typeof RosterTeamOfferSchema>;

export const RostersOfferSchema = Type.Object(
  {
    provider: OneOf(['faceit', 'hltv'] as const),
    matchId: Type.String(),
    teams: Type.Array(RosterTeamOfferSchema),
  },
  strict,
);
export type RostersOffer = Static<typeof RostersOfferSchema>;

/** Where a match is read from: the source of import_match_veto, read_rosters and save_rosters. */
export const RosterSourceSchema = {
  url: Type.Optional(
    Type.String({
      maxLength: 2048,
      description: 'FACEIT room URL or HLTV match URL (blank counts as not sent)',
    }),
  ),
  platformMatchId: Type.Optional(
    Type.String({ maxLength: 128, description: 'FACEIT match id (blank counts as not sent)' }),
  ),
};
