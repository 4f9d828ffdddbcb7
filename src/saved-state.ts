/**
 * The saved state: what survives a restart and a kill. A versioned document checked against a
 * schema on load; the compile-time checks below keep the schema and the machines' types together.
 */
import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { HostInput } from '../machines/host.machine.ts';
import type { MatchInput } from '../machines/match.machine.ts';
import type { ObsSettings } from '../machines/obs-connection.machine.ts';
import type { PanelInput } from '../machines/panel.machine.ts';
import type { ProductionInput } from '../machines/production.machine.ts';
import type { SceneWindowInput } from '../machines/scene-window.machine.ts';
import type { VetoRevealInput } from '../machines/veto-reveal.machine.ts';
import type { VetoSessionInput } from '../machines/veto-session.machine.ts';
import { ProductionSchema } from './answer-schemas.ts';
import { DEFAULT_SLOT_NUMBERING, GameSideSchema, SlotNumberingSchema } from './protocol/game.ts';
import {
  BoFormatSchema,
  SceneSchema,
  SideSchema,
  StepTypeSchema,
  strict,
  TeamFormatSchema,
  TeamSchema,
} from './schemas.ts';

export const SAVED_STATE_VERSION = 1;

const Step = Type.Object({
  type: StepTypeSchema,
  team: Type.Optional(SideSchema),
  map: Type.String(),
});

const SeriesMap = Type.Object({
  map: Type.String(),
  pickedBy: Type.Union([SideSchema, Type.Literal('decider')]),
  finished: Type.Boolean(),
  scoreA: Type.Integer({ minimum: 0, maximum: 99 }),
  scoreB: Type.Integer({ minimum: 0, maximum: 99 }),
  winner: Type.Union([SideSchema, Type.Null()]),
});

const SeriesSetup = Type.Object({
  boFormat: Type.Union([BoFormatSchema, Type.Null()]),
  teamA: Type.Union([TeamSchema, Type.Null()]),
  teamB: Type.Union([TeamSchema, Type.Null()]),
  maps: Type.Array(SeriesMap),
  veto: Type.Union([Type.Array(Step), Type.Null()]),
});

const Match = Type.Composite([
  SeriesSetup,
  Type.Object({
    eventName: Type.String({ maxLength: 120 }),
    teamFormat: TeamFormatSchema,
    beforeSession: Type.Union([SeriesSetup, Type.Null()]),
    // Absent in files from before game data: team A on CT.
    teamASide: Type.Optional(GameSideSchema),
  }),
]);

const RevealSetting = Type.Object({ instant: Type.Boolean(), revealed: Type.Integer({ minimum: 0 }) });

const VetoSession = Type.Object({
  session: Type.Union([
    Type.Object({
      boFormat: BoFormatSchema,
      firstBanner: SideSchema,
      pool: Type.Array(Type.String()),
      steps: Type.Array(Step),
    }),
    Type.Null(),
  ]),
});

const Panel = Type.Object({
  visible: Type.Union([Type.Boolean(), Type.Null()]),
  hideAt: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
});

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
  pattern: '^[0-9a-f]{32}\\.(png|jpg|webp|gif)$',
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

export const SavedStateSchema = Type.Object({
  version: Type.Literal(SAVED_STATE_VERSION),
  savedAt: Type.String(),
  revision: Type.Integer({ minimum: 0 }),
  settings: SettingsSchema,
  host: Type.Object({
    presets: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
    colorPresetId: Type.Union([Type.String(), Type.Null()]),
    // Saved when it changes, so a restart mid-match shows the players at once.
    roster: Type.Optional(Type.Array(Type.Object({ slot: Type.Integer(), name: Type.String() }))),
  }),
  match: Match,
  vetoSession: VetoSession,
  vetoReveal: Type.Composite([
    RevealSetting,
    Type.Object({ beforeSession: Type.Optional(Type.Union([RevealSetting, Type.Null()])) }),
  ]),
  sceneWindow: Type.Object({ scene: Type.Union([SceneSchema, Type.Null()]) }),
  panels: Type.Object({ scoreboard: Panel, vetoPanel: Panel, stats: Panel, overlay: Panel }),
  production: ProductionSchema,
});

export type SavedState = Static<typeof SavedStateSchema>;
export type Settings = Static<typeof SettingsSchema>;

/**
 * A saved state as a start reads it: a part that could not be read is left out and starts from its
 * default; of the settings, only the setting that could not be read (docs/persistence.md).
 */
export type LoadedState = Pick<SavedState, 'version' | 'revision'> &
  Partial<Omit<SavedState, 'version' | 'revision' | 'settings'>> & { settings?: Partial<Settings> };

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

export function publicSettings(settings: Settings): PublicSettings {
  const { password, ...obs } = settings.obs;
  return {
    lanMode: settings.lanMode,
    obs: { ...obs, passwordSet: password !== '' },
    sources: settings.sources,
    automation: { enabled: automationEnabled(settings) },
    branding: brandingOf(settings),
    game: gameSettings(settings),
  };
}

/** The branding set in the operator app, or nothing set. */
export function brandingOf(settings: Settings): Branding {
  return settings.branding ?? DEFAULT_BRANDING;
}

/** The game-data settings in use: the saved ones, or the defaults. */
export function gameSettings(settings: Settings): Static<typeof GameSettingsSchema> {
  return settings.game ?? { slotNumbering: DEFAULT_SLOT_NUMBERING };
}

/** Whether the automation port should be open: on unless the operator switched it off. */
export function automationEnabled(settings: Settings): boolean {
  return settings.automation?.enabled ?? true;
}

// The schema and the machines describe the same data: these fail to compile when they drift apart.
// Fields added after the first saved states are optional in the file (absent reads as null, see
// hudInputFrom), so the machines' inputs are compared with the file's fields all present.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <T extends true>(): T => true as T;
agree<Same<Required<SavedState['match']>, MatchInput>>();
agree<Same<SavedState['vetoSession'], VetoSessionInput>>();
agree<Same<Required<SavedState['vetoReveal']>, VetoRevealInput>>();
agree<Same<SavedState['sceneWindow'], SceneWindowInput>>();
agree<Same<Required<SavedState['panels']['stats']>, PanelInput>>();
agree<Same<SavedState['production'], ProductionInput>>();
agree<Same<SavedState['settings']['obs'], ObsSettings>>();
agree<Same<Required<SavedState['host']>, Pick<HostInput, 'presets' | 'colorPresetId' | 'roster'>>>();
