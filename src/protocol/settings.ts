/**
 * The settings that last (saved in the data directory) and how the panel API changes and shows
 * them: POST /internal/settings and POST /api/panel/settings take a SettingsChange, every answer
 * and the panel.status event carry PublicSettings (the OBS password only as set or not).
 */
import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import { SlotNumberingSchema } from './game.ts';
import { MEDIA_ID_PATTERN } from './media.ts';
import { strict } from './schemas.ts';

export const ObsSettingsSchema = Type.Object({
  url: Type.String(),
  password: Type.String(),
  enabled: Type.Boolean(),
});

export const ImportSourcesSchema = Type.Object({
  faceitUrl: Type.String(),
  faceitDataApiUrl: Type.String(),
  hltvUrl: Type.String(),
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

/** What the broadcast pages show besides the match: the event logo, the sponsors, the talents. */
export const BrandingSchema = Type.Object(
  {
    eventLogo: Type.Union([MediaIdSchema, Type.Null()]),
    sponsors: Type.Array(SponsorSchema, { maxItems: 24 }),
    talents: Type.Array(TalentSchema, { maxItems: 12 }),
  },
  strict,
);
export type Branding = Static<typeof BrandingSchema>;
export const DEFAULT_BRANDING: Branding = { eventLogo: null, sponsors: [], talents: [] };

export const GameSettingsSchema = Type.Object({
  slotNumbering: SlotNumberingSchema,
});

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
});
export type PublicSettings = Static<typeof PublicSettingsSchema>;
