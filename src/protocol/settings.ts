/**
 * The settings that last (saved in the data directory) and how the panel API changes and shows
 * them: POST /internal/settings and POST /api/panel/settings take a SettingsChange, every answer
 * and the panel.status event carry PublicSettings (the OBS password only as set or not).
 */
import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import { ACTIVE_DUTY_AS_OF, ACTIVE_DUTY_POOL, FULL_MAP_NAME } from '../../machines/map-names.ts';
import { POOL_SIZE } from '../../machines/veto-rules.ts';
import { SlotNumberingSchema } from './game.ts';
import { HotkeysChangeSchema, HotkeysSchema } from './hotkeys.ts';
import { MEDIA_ID_PATTERN } from './media.ts';
import { MapNameSchema, strict } from './schemas.ts';

export const ObsSettingsSchema = Type.Object({
  url: Type.String(),
  password: Type.String(),
  enabled: Type.Boolean(),
});

export const ImportSourcesSchema = Type.Object({
  faceitUrl: Type.String(),
  faceitDataApiUrl: Type.String(),
  hltvUrl: Type.String(),
  // Absent in files from before issue 37, and until the operator confirms a host: none.
  faceitKeyHost: Type.Optional(
    Type.String({
      maxLength: 261,
      description:
        'The host (name or name:port) besides open.faceit.com that may receive FACEIT_API_KEY, confirmed by the operator; empty: none (docs/access.md)',
    }),
  ),
});

export const AutomationSettingsSchema = Type.Object({
  enabled: Type.Boolean({ description: 'Enable local automation server: the automation port is open' }),
});

/** An image the operator uploaded: its file in the data directory's media folder, served at /media/<id>. */
export const MediaIdSchema = Type.String({
  pattern: `^${MEDIA_ID_PATTERN}$`,
  description: 'An uploaded image (POST /api/panel/media), served at /media/<id>',
});

export const TalentSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64, pattern: '\\S' }),
    role: Type.String({ maxLength: 32, description: 'Caster, host, analyst …' }),
    handle: Type.Optional(Type.String({ maxLength: 64, description: 'A social handle, e.g. @name' })),
    photo: Type.Optional(MediaIdSchema),
  },
  strict,
);

export const SponsorSchema = Type.Object(
  { name: Type.String({ maxLength: 64 }), image: MediaIdSchema },
  strict,
);

// ---------- The radar's images (issue 19) ----------
/** A map's radar images (POST /api/panel/media/radar): the overview, and its lower level's on two-level maps. */
export const RadarImageSchema = Type.Object(
  {
    image: MediaIdSchema,
    lower: Type.Optional(MediaIdSchema),
  },
  strict,
);
/** The radar images by full map name (de_nuke): the radar draws them under the dots. */
export const RadarImagesSchema = Type.Record(
  Type.String({ pattern: '^[a-z]{2}_[a-z0-9]{2,24}$' }),
  RadarImageSchema,
  {
    ...strict,
    maxProperties: 64,
    description: 'By full map name (de_nuke); a map left out has none (the radar draws a plain background)',
  },
);
export type RadarImages = Static<typeof RadarImagesSchema>;
// ---------- end of the radar's images ----------

/**
 * The cards of the moments of a map (half-time, map point, match point, timeouts): each goes on air
 * by the game state unless its switch here is off (issue 35; docs/themes.md, "Moment cards").
 */
export const MOMENT_CARDS = ['halftime', 'mapPoint', 'matchPoint', 'timeout'] as const;
export type MomentCard = (typeof MOMENT_CARDS)[number];
export const MomentCardsSchema = Type.Object(
  Object.fromEntries(MOMENT_CARDS.map((card) => [card, Type.Boolean()])) as Record<
    MomentCard,
    ReturnType<typeof Type.Boolean>
  >,
  { ...strict, description: 'Which moment cards may go on air: true (the default) lets the game state show it' },
);
export type MomentCards = Static<typeof MomentCardsSchema>;
export const ALL_MOMENT_CARDS: MomentCards = { halftime: true, mapPoint: true, matchPoint: true, timeout: true };

/** What the broadcast pages show besides the match: the event logo, the sponsors, the talents. */
export const BrandingSchema = Type.Object(
  {
    eventLogo: Type.Union([MediaIdSchema, Type.Null()]),
    sponsors: Type.Array(SponsorSchema, { maxItems: 24 }),
    talents: Type.Array(TalentSchema, { maxItems: 12 }),
    // Absent in files from before the radar: none uploaded.
    radarImages: Type.Optional(RadarImagesSchema),
    // Absent in files from before issue 35: every card on air by the game state.
    momentCards: Type.Optional(MomentCardsSchema),
    // Absent in files from before issue 35: on air.
    killfeedOnAir: Type.Optional(
      Type.Boolean({ description: "The overlay's killfeed (top right, where the game's is): false keeps it off air" }),
    ),
    // Absent in files from before issue 35: none set.
    eventShortName: Type.Optional(
      Type.String({
        maxLength: 60,
        description:
          "The event's name in a shorter form, for the top bar when the whole name does not fit (empty: none)",
      }),
    ),
  },
  strict,
);
export type Branding = Static<typeof BrandingSchema>;
export const DEFAULT_BRANDING: Branding = { eventLogo: null, sponsors: [], talents: [] };

export const GameSettingsSchema = Type.Object({
  slotNumbering: SlotNumberingSchema,
});

// ---- The veto's map pool (issue 19) ---------------------------------------------------------
// The pool veto_start uses when it names none, edited in the operator app (Veto > Map pool). Saved
// as full map names; a change may spell them as veto commands do (mirage, Dust II) and is
// normalised by the settings owner, which refuses a name that is no map and a map named twice.

const POOL_LIMITS = { minItems: POOL_SIZE.min.bo1, maxItems: POOL_SIZE.max } as const;

export const VetoSettingsSchema = Type.Object(
  {
    mapPool: Type.Array(Type.String({ pattern: FULL_MAP_NAME }), {
      ...POOL_LIMITS,
      uniqueItems: true,
      description: `The map pool of veto_start without mapPool; the CS2 Active Duty pool of ${ACTIVE_DUTY_AS_OF} until changed`,
    }),
  },
  strict,
);
export type VetoSettings = Static<typeof VetoSettingsSchema>;
export const DEFAULT_VETO_SETTINGS: VetoSettings = { mapPool: [...ACTIVE_DUTY_POOL] };

export const VetoSettingsChangeSchema = Type.Object(
  {
    mapPool: Type.Optional(
      Type.Array(MapNameSchema, {
        ...POOL_LIMITS,
        description: 'Map names as veto commands take them (mirage, de_mirage, Dust II), each once',
      }),
    ),
  },
  strict,
);
// ---- end of the map pool ----------------------------------------------------------------------

export const SettingsSchema = Type.Object({
  lanMode: Type.Boolean(),
  obs: ObsSettingsSchema,
  sources: ImportSourcesSchema,
  // Absent in files of earlier versions: the server is on, as it was then.
  automation: Type.Optional(AutomationSettingsSchema),
  // Absent in files of earlier versions: nothing set.
  branding: Type.Optional(BrandingSchema),
  // Absent in files from before game data: the defaults of src/game/slots.ts.
  game: Type.Optional(GameSettingsSchema),
  // The map pool. Absent in files from before issue 19: the Active Duty pool.
  veto: Type.Optional(VetoSettingsSchema),
  // The keys of the Live page's on-air switches. Absent in files from before issue 33: F9 and F7.
  hotkeys: Type.Optional(HotkeysSchema),
});

export type Settings = Static<typeof SettingsSchema>;

/** A change of the settings that last (POST /internal/settings): at least one part, each partial. */
export const SettingsChangeSchema = Type.Object(
  {
    lanMode: Type.Optional(Type.Boolean()),
    obs: Type.Optional(Type.Partial(ObsSettingsSchema, strict)),
    sources: Type.Optional(Type.Partial(ImportSourcesSchema, strict)),
    automation: Type.Optional(Type.Partial(AutomationSettingsSchema, strict)),
    branding: Type.Optional(Type.Partial(BrandingSchema, strict)),
    game: Type.Optional(Type.Partial(GameSettingsSchema, strict)),
    // The map pool.
    veto: Type.Optional(VetoSettingsChangeSchema),
    // The keys of the on-air switches (a key another switch has is refused, 409).
    hotkeys: Type.Optional(HotkeysChangeSchema),
  },
  { ...strict, minProperties: 1 },
);
export type SettingsChange = Static<typeof SettingsChangeSchema>;

/** The settings as the panel shows them: the OBS password only as set or not. */
export const PublicSettingsSchema = Type.Object({
  lanMode: Type.Boolean(),
  obs: Type.Object({ url: Type.String(), enabled: Type.Boolean(), passwordSet: Type.Boolean() }),
  sources: ImportSourcesSchema,
  automation: AutomationSettingsSchema,
  branding: BrandingSchema,
  game: GameSettingsSchema,
  // The map pool.
  veto: VetoSettingsSchema,
  // The keys of the on-air switches.
  hotkeys: HotkeysSchema,
});
export type PublicSettings = Static<typeof PublicSettingsSchema>;
