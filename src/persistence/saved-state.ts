/**
 * The saved state: what survives a restart and a kill. A versioned document checked against a
 * schema on load; the compile-time checks below keep the schema and the machines' types together.
 */
import type { Static, TOptional } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { HistoryInput } from '../../machines/history.machine.ts';
import type { HostInput } from '../../machines/host.machine.ts';
import type { MatchInput } from '../../machines/match.machine.ts';
import type { ObsSettings } from '../../machines/obs-connection.machine.ts';
import type { ObserverInput } from '../../machines/observer.machine.ts';
import type { PanelInput } from '../../machines/panel.machine.ts';
import type { PanelId } from '../../machines/panels.ts';
import { PANEL_IDS } from '../../machines/panels.ts';
import type { ProductionInput } from '../../machines/production.machine.ts';
import type { SceneWindowInput } from '../../machines/scene-window.machine.ts';
import type { VetoRevealInput } from '../../machines/veto-reveal.machine.ts';
import type { VetoSessionInput } from '../../machines/veto-session.machine.ts';
import { ProductionSchema } from '../protocol/answers.ts';
import { GameSideSchema } from '../protocol/game.ts';
import { CutStrategySchema } from '../protocol/observer.ts';
import {
  BoFormatSchema,
  LogoStatusSchema,
  ObserverModeSchema,
  SceneSchema,
  SideSchema,
  StepTypeSchema,
  TeamFormatSchema,
  TeamSchema,
} from '../protocol/schemas.ts';
import type { Settings } from '../protocol/settings.ts';
import { SettingsSchema } from '../protocol/settings.ts';

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
    // Absent in files from before the logos were fetched: none known (each in use is fetched).
    logos: Type.Optional(Type.Record(Type.String(), LogoStatusSchema)),
  }),
]);

/** ADR's figures of the map in play (machines/host.machine.ts, MapFigures). */
const MapFigures = Type.Object({
  map: Type.String({ maxLength: 256 }),
  round: Type.Integer({ minimum: 0 }),
  rounds: Type.Integer({ minimum: 0 }),
  damage: Type.Record(Type.String({ maxLength: 32 }), Type.Integer({ minimum: 0 })),
});

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

/** One part per panel of machines/panels.ts; a panel missing from an older file starts unknown. */
const PANEL_PARTS = Object.fromEntries(PANEL_IDS.map((id) => [id, Type.Optional(Panel)])) as Record<
  PanelId,
  TOptional<typeof Panel>
>;

/**
 * The production overlays. Files from before the observer actor also hold `smartObserver` here: it
 * is read as the observer's settings when the file has no `observer` part, and no longer written.
 */
const Production = Type.Object({
  sponsorOverlay: ProductionSchema.properties.sponsorOverlay,
  eventBadge: ProductionSchema.properties.eventBadge,
  smartObserver: Type.Optional(ProductionSchema.properties.smartObserver),
});

/** The automatic observer: what set_smart_observer and set_observer_console set (never its live state). */
const Observer = Type.Object({
  settings: Type.Object({
    enabled: Type.Boolean(),
    mode: ObserverModeSchema,
    cinematicEnabled: Type.Boolean(),
  }),
  netcon: Type.Object({
    host: Type.String({ minLength: 1, maxLength: 64 }),
    port: Type.Integer({ minimum: 1, maximum: 65_535 }),
  }),
  // The cut strategy the operator pinned (observer_pin). Absent in files from before it: none.
  pinned: Type.Optional(Type.Union([CutStrategySchema, Type.Null()])),
});

/** One change of the crew's undo history, with the fields it touched as they were (undo) or are (redo). */
const HistoryRecord = Type.Object({
  label: Type.String({ maxLength: 300 }),
  at: Type.String({ maxLength: 40 }),
  state: Type.Object({
    match: Type.Partial(
      Type.Composite([Type.Omit(Match, ['logos', 'teamASide']), Type.Object({ teamASide: GameSideSchema })]),
    ),
    session: Type.Optional(VetoSession.properties.session),
    reveal: Type.Partial(
      Type.Composite([
        RevealSetting,
        Type.Object({ beforeSession: Type.Union([RevealSetting, Type.Null()]) }),
      ]),
    ),
  }),
});
const History = Type.Object({ undo: Type.Array(HistoryRecord), redo: Type.Array(HistoryRecord) });

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
    // Saved when a round is over (never per frame), so ADR continues after a restart mid-map.
    // Absent in files from before: none.
    mapFigures: Type.Optional(Type.Union([MapFigures, Type.Null()])),
  }),
  match: Match,
  vetoSession: VetoSession,
  vetoReveal: Type.Composite([
    RevealSetting,
    Type.Object({ beforeSession: Type.Optional(Type.Union([RevealSetting, Type.Null()])) }),
  ]),
  sceneWindow: Type.Object({ scene: Type.Union([SceneSchema, Type.Null()]) }),
  panels: Type.Object(PANEL_PARTS),
  production: Production,
  // Absent in files from before the observer actor: its settings then come from production.smartObserver.
  observer: Type.Optional(Observer),
  // The undo history (issue 33); absent in files from before it: none.
  history: Type.Optional(History),
});

export type SavedState = Static<typeof SavedStateSchema>;

/**
 * A saved state as a start reads it: a part that could not be read is left out and starts from its
 * default; of the settings, only the setting that could not be read (docs/persistence.md).
 */
export type LoadedState = Pick<SavedState, 'version' | 'revision'> &
  Partial<Omit<SavedState, 'version' | 'revision' | 'settings'>> & { settings?: Partial<Settings> };

// The schema and the machines describe the same data: these fail to compile when they drift apart.
// Fields added after the first saved states are optional in the file (absent reads as null, see
// hudInputFrom), so the machines' inputs are compared with the file's fields all present.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <T extends true>(): T => true as T;
agree<Same<Required<SavedState['match']>, MatchInput>>();
agree<Same<SavedState['vetoSession'], VetoSessionInput>>();
agree<Same<Required<SavedState['vetoReveal']>, VetoRevealInput>>();
agree<Same<SavedState['sceneWindow'], SceneWindowInput>>();
agree<Same<Required<SavedState>['history'], HistoryInput>>();
agree<Same<Required<NonNullable<SavedState['panels']['stats']>>, PanelInput>>();
agree<Same<Omit<SavedState['production'], 'smartObserver'>, ProductionInput>>();
agree<Same<Required<SavedState>['observer'], ObserverInput>>();
agree<Same<SavedState['settings']['obs'], ObsSettings>>();
agree<
  Same<Required<SavedState['host']>, Pick<HostInput, 'presets' | 'colorPresetId' | 'roster' | 'mapFigures'>>
>();
