/**
 * What each actor saves and how it is restored: one descriptor per part of the saved document, the
 * one place that knows both the actors' snapshots and the document's shape. The document's schema
 * (saved-state.ts), the input the actors start from, the saved document of the running actors and
 * whether a change is worth a write (saved-input.ts) are loops over this table.
 *
 * An actor absent here saves nothing: the OBS connection (rebuilt on start, its retries cost no
 * write) and the game actor (it changes with every frame; what lasts of a frame it sends to the host
 * and the match). Of the observer only the settings, the address and the pinned strategy: its
 * director moves with every frame and must cost no write either.
 */
import type { Static, TOptional, TSchema } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import { HISTORY_DEFAULTS } from '../../machines/history.machine.ts';
import type { HostInput } from '../../machines/host.machine.ts';
import { MATCH_DEFAULTS } from '../../machines/match.machine.ts';
import type { ObsSettings } from '../../machines/obs-connection.machine.ts';
import type { NetconAddress, ObserverSettings } from '../../machines/observer.machine.ts';
import { OBSERVER_DEFAULTS } from '../../machines/observer.machine.ts';
import type { CutStrategy } from '../../machines/observer-strategies.ts';
import type { PanelInput } from '../../machines/panel.machine.ts';
import { panelVisibility } from '../../machines/panel.machine.ts';
import type { PanelId } from '../../machines/panels.ts';
import { PANEL_IDS } from '../../machines/panels.ts';
import { PRODUCTION_DEFAULTS } from '../../machines/production.machine.ts';
import type { HudInput } from '../../machines/supervisor.machine.ts';
import { REVEAL_DEFAULTS } from '../../machines/veto-reveal.machine.ts';
import type { ActorKey, Snapshots } from '../core/hud-system.ts';
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
import type { LoadedState } from './saved-state.ts';

/** What the host machine starts with that is not saved: the application around the service reports it. */
export type LiveHost = Omit<HostInput, 'presets' | 'colorPresetId' | 'roster' | 'mapFigures'>;

/** What a start knows besides the saved document. */
export interface RunStart {
  obs: ObsSettings;
  host: LiveHost;
  /** When the actors start (ms since the epoch). */
  now: number;
  /** The game console's address given for this run (`--netcon`), or null: never written. */
  netconOverride: NetconAddress | null;
}

/** What saving needs to know of the run: the console address of `--netcon` and the one saved before it. */
export interface SaveRun {
  netconOverride: NetconAddress | null;
  /** The address of the loaded state (or the default): written while the observer uses the override. */
  savedNetcon: NetconAddress;
}

/** What saving needs of the run: `--netcon`'s address, and the address of the loaded state it never replaces. */
export const saveRunOf = (saved: LoadedState | null, netconOverride: NetconAddress | null): SaveRun => ({
  netconOverride,
  savedNetcon: saved?.observer?.netcon ?? OBSERVER_DEFAULTS.netcon,
});

/** The saved document as a start reads it, for a part that also reads what older files kept elsewhere. */
export type OlderParts = { readonly [part: string]: unknown };

/**
 * One part of the saved document. `from` names the values (compared by identity) the part is built
 * from: while they are the same objects, the part is the same object, so nothing is written and the
 * store serialises nothing (state-store.ts). `last` is what `from` gave the time before (null the
 * first time), for a part that keeps what it wrote.
 */
export interface SavedPart<S extends TSchema, V extends readonly unknown[], I> {
  /** Its schema in the document; optional when files from before it lack it. */
  schema: S;
  /** The actors it is saved from: a commit that changed none of them is not looked at. */
  sources: readonly ActorKey[];
  from(snapshots: Snapshots, run: SaveRun, last: V | null): V;
  part(values: V): Static<S>;
  /** The input its actor starts from, from the part as loaded (absent: it could not be read, or no file). */
  restore(part: Static<S> | undefined, start: RunStart, older: OlderParts): I;
}

/** Ties the three together: a part whose values, schema or input do not fit fails to compile. */
const savedPart = <K extends keyof HudInput, S extends TSchema, const V extends readonly unknown[]>(
  _key: K,
  descriptor: SavedPart<S, V, HudInput[K]>,
) => descriptor;

// ---- the parts' pieces -------------------------------------------------------------------------

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

/** ADR's figures of the map in play (machines/host.machine.ts, MapFigures). */
const MapFigures = Type.Object({
  map: Type.String({ maxLength: 256 }),
  round: Type.Integer({ minimum: 0 }),
  rounds: Type.Integer({ minimum: 0 }),
  damage: Type.Record(Type.String({ maxLength: 32 }), Type.Integer({ minimum: 0 })),
});

const RevealSetting = Type.Object({ instant: Type.Boolean(), revealed: Type.Integer({ minimum: 0 }) });

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

const Panel = Type.Object({
  visible: Type.Union([Type.Boolean(), Type.Null()]),
  hideAt: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
});

/** One part per panel of machines/panels.ts; a panel missing from an older file starts unknown. */
const PANEL_PARTS = Object.fromEntries(PANEL_IDS.map((id) => [id, Type.Optional(Panel)])) as {
  [P in PanelId]: TOptional<typeof Panel>;
};

/** What the observer's part is built from: settings, the address written, the pinned strategy. */
type ObserverValues = readonly [ObserverSettings, NetconAddress, CutStrategy | null];

const sameAddress = (a: NetconAddress, b: NetconAddress) => a.host === b.host && a.port === b.port;

// ---- the parts ---------------------------------------------------------------------------------

/**
 * The saved parts, in the document's order. A new saved actor is one entry here (with its roster
 * entry in machines/supervisor.machine.ts and its systemId): its key is the key of its input.
 */
export const SAVED_PARTS = {
  host: savedPart('host', {
    schema: Type.Object({
      presets: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
      colorPresetId: Type.Union([Type.String(), Type.Null()]),
      // Saved when it changes, so a restart mid-match shows the players at once.
      roster: Type.Optional(Type.Array(Type.Object({ slot: Type.Integer(), name: Type.String() }))),
      // Saved when a round is over (never per frame), so ADR continues after a restart mid-map.
      // Absent in files from before: none.
      mapFigures: Type.Optional(Type.Union([MapFigures, Type.Null()])),
    }),
    sources: ['host'],
    from: ({ host: { context } }) =>
      [context.presets, context.colorPresetId, context.roster, context.mapFigures] as const,
    part: ([presets, colorPresetId, roster, mapFigures]) => ({ presets, colorPresetId, roster, mapFigures }),
    // What the application reports (window, sign-in, subscription) is live, never saved.
    restore: (part, start) => ({
      ...start.host,
      presets: part?.presets ?? [],
      colorPresetId: part?.colorPresetId ?? null,
      roster: part?.roster ?? [],
      mapFigures: part?.mapFigures ?? null,
    }),
  }),
  match: savedPart('match', {
    schema: Match,
    sources: ['match'],
    from: ({ match }) => [match.context] as const,
    part: ([context]) => context,
    restore: (part) =>
      part ? { teamASide: MATCH_DEFAULTS.teamASide, logos: MATCH_DEFAULTS.logos, ...part } : MATCH_DEFAULTS,
  }),
  vetoSession: savedPart('vetoSession', {
    schema: VetoSession,
    sources: ['vetoSession'],
    from: ({ vetoSession }) => [vetoSession.context.session] as const,
    part: ([session]) => ({ session }),
    restore: (part) => part ?? { session: null },
  }),
  vetoReveal: savedPart('vetoReveal', {
    schema: Type.Composite([
      RevealSetting,
      Type.Object({ beforeSession: Type.Optional(Type.Union([RevealSetting, Type.Null()])) }),
    ]),
    sources: ['vetoReveal'],
    from: ({ vetoReveal }) => [vetoReveal.context] as const,
    part: ([context]) => context,
    restore: (part) => (part ? { beforeSession: null, ...part } : REVEAL_DEFAULTS),
  }),
  sceneWindow: savedPart('sceneWindow', {
    schema: Type.Object({ scene: Type.Union([SceneSchema, Type.Null()]) }),
    sources: ['sceneWindow'],
    from: ({ sceneWindow }) => [sceneWindow.context] as const,
    part: ([context]) => context,
    restore: (part) => part ?? { scene: null },
  }),
  panels: savedPart('panels', {
    schema: Type.Object(PANEL_PARTS),
    sources: PANEL_IDS,
    // One value per panel: a toggle rebuilds the part, and only that panel's entry is new.
    from: (snapshots) => PANEL_IDS.map((id) => snapshots[id]),
    part: (panels) => {
      const part: Partial<Record<PanelId, PanelInput>> = {};
      PANEL_IDS.forEach((id, i) => {
        const snapshot = panels[i] as Snapshots[PanelId];
        part[id] = { visible: panelVisibility(snapshot), hideAt: snapshot.context.hideAt };
      });
      return part as Record<PanelId, PanelInput>;
    },
    // A panel missing from an older file (or a new panel) starts unknown, as with no file at all.
    restore: (part) =>
      Object.fromEntries(
        PANEL_IDS.map((id) => [id, { visible: null, hideAt: null, ...part?.[id] }]),
      ) as Record<PanelId, PanelInput>,
  }),
  production: savedPart('production', {
    /**
     * Files from before the observer actor also hold `smartObserver` here: it is read as the
     * observer's settings when the file has no `observer` part, and no longer written.
     */
    schema: Type.Object({
      sponsorOverlay: ProductionSchema.properties.sponsorOverlay,
      eventBadge: ProductionSchema.properties.eventBadge,
      // Absent in files from before the clean feed: none held.
      cleanFeed: Type.Optional(ProductionSchema.properties.cleanFeed),
      smartObserver: Type.Optional(ProductionSchema.properties.smartObserver),
    }),
    sources: ['production'],
    from: ({ production }) => [production.context] as const,
    part: ([context]) => context,
    restore: (part) =>
      part
        ? {
            sponsorOverlay: part.sponsorOverlay,
            eventBadge: part.eventBadge,
            cleanFeed: part.cleanFeed ?? null,
          }
        : PRODUCTION_DEFAULTS,
  }),
  observer: savedPart('observer', {
    // Absent in files from before the observer actor: its settings then come from production.smartObserver.
    schema: Type.Optional(
      Type.Object({
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
      }),
    ),
    sources: ['observer'],
    // The address of `--netcon` is never written: while the observer uses it, what was written stays.
    from: ({ observer: { context } }, run, last: ObserverValues | null): ObserverValues => {
      const { netconOverride } = run;
      const written =
        netconOverride && sameAddress(context.netcon, netconOverride)
          ? (last?.[1] ?? run.savedNetcon)
          : context.netcon;
      return [context.settings, written, context.strategy.pinned] as const;
    },
    part: ([settings, netcon, pinned]) => ({ settings, netcon, pinned }),
    restore: (part, start, older) => {
      const before = (older.production as { smartObserver?: ObserverSettings } | undefined)?.smartObserver;
      return {
        settings: { ...(part?.settings ?? before ?? OBSERVER_DEFAULTS.settings) },
        netcon: { ...(start.netconOverride ?? part?.netcon ?? OBSERVER_DEFAULTS.netcon) },
        pinned: part?.pinned ?? null,
      };
    },
  }),
  history: savedPart('history', {
    // The crew's undo history (issue 33); absent in files from before it: none.
    schema: Type.Optional(Type.Object({ undo: Type.Array(HistoryRecord), redo: Type.Array(HistoryRecord) })),
    sources: ['history'],
    from: ({ history }) => [history.context] as const,
    part: ([context]) => context,
    restore: (part) => part ?? HISTORY_DEFAULTS,
  }),
};

export type SavedParts = typeof SAVED_PARTS;
export type SavedPartKey = keyof SavedParts;
export const SAVED_PART_KEYS = Object.keys(SAVED_PARTS) as SavedPartKey[];

/** The schema of each part, as the document holds them. */
export const SAVED_PART_SCHEMAS = Object.fromEntries(
  SAVED_PART_KEYS.map((key) => [key, SAVED_PARTS[key].schema]),
) as { [K in SavedPartKey]: SavedParts[K]['schema'] };
