/**
 * The one mapping between the saved document and the machines, both ways: the input the actors
 * start from (a saved state, or the defaults), and the saved state of the running actors.
 */
import { HISTORY_DEFAULTS } from '../../machines/history.machine.ts';
import type { HostInput } from '../../machines/host.machine.ts';
import { MATCH_DEFAULTS } from '../../machines/match.machine.ts';
import type { ObsSettings } from '../../machines/obs-connection.machine.ts';
import type { NetconAddress } from '../../machines/observer.machine.ts';
import { OBSERVER_DEFAULTS } from '../../machines/observer.machine.ts';
import type { PanelInput } from '../../machines/panel.machine.ts';
import { panelVisibility } from '../../machines/panel.machine.ts';
import type { PanelId } from '../../machines/panels.ts';
import { PANEL_IDS } from '../../machines/panels.ts';
import { PRODUCTION_DEFAULTS } from '../../machines/production.machine.ts';
import type { HudInput } from '../../machines/supervisor.machine.ts';
import { REVEAL_DEFAULTS } from '../../machines/veto-reveal.machine.ts';
import type { ActorKey, SnapshotOf, Snapshots } from '../core/hud-system.ts';
import type { StateReads } from '../core/state-hub.ts';
import type { Settings } from '../protocol/settings.ts';
import type { SettingsOwner } from '../settings/settings-owner.ts';
import type { LoadedState, SavedState } from './saved-state.ts';
import { SAVED_STATE_VERSION } from './saved-state.ts';

/** What the host machine starts with that is not saved: the application around the service reports it. */
export type LiveHost = Omit<HostInput, 'presets' | 'colorPresetId' | 'roster' | 'mapFigures'>;

const panelsOf = (build: (id: PanelId) => PanelInput) =>
  Object.fromEntries(PANEL_IDS.map((id) => [id, build(id)])) as Record<PanelId, PanelInput>;

const sameAddress = (a: NetconAddress, b: NetconAddress) => a.host === b.host && a.port === b.port;

/**
 * The input the actors start from: the saved state (or the defaults), the OBS settings, the live host.
 * `netconOverride` is the game console's address given for this run (`--netcon`), or null.
 */
export function hudInputFrom(
  saved: LoadedState | null,
  obs: ObsSettings,
  host: LiveHost,
  now: number,
  netconOverride: NetconAddress | null,
): HudInput {
  // Fields newer than the first saved states may be absent: absent is none. A part left out (it could
  // not be read) starts from its default.
  const { panels } = saved ?? {};
  return {
    host: {
      ...host,
      presets: saved?.host?.presets ?? [],
      colorPresetId: saved?.host?.colorPresetId ?? null,
      roster: saved?.host?.roster ?? [],
      mapFigures: saved?.host?.mapFigures ?? null,
    },
    match: saved?.match
      ? { teamASide: MATCH_DEFAULTS.teamASide, logos: MATCH_DEFAULTS.logos, ...saved.match }
      : MATCH_DEFAULTS,
    vetoSession: saved?.vetoSession ?? { session: null },
    vetoReveal: saved?.vetoReveal ? { beforeSession: null, ...saved.vetoReveal } : REVEAL_DEFAULTS,
    sceneWindow: saved?.sceneWindow ?? { scene: null },
    // A panel missing from an older file (or a new panel) starts unknown, as with no file at all.
    panels: panelsOf((id) => ({ visible: null, hideAt: null, ...panels?.[id] }) as PanelInput),
    production: saved?.production
      ? { sponsorOverlay: saved.production.sponsorOverlay, eventBadge: saved.production.eventBadge }
      : PRODUCTION_DEFAULTS,
    obs,
    observer: {
      // Files from before the observer actor kept its settings in production.smartObserver.
      settings: {
        ...(saved?.observer?.settings ?? saved?.production?.smartObserver ?? OBSERVER_DEFAULTS.settings),
      },
      netcon: { ...(netconOverride ?? saved?.observer?.netcon ?? OBSERVER_DEFAULTS.netcon) },
      pinned: saved?.observer?.pinned ?? null,
    },
    history: saved?.history ?? HISTORY_DEFAULTS,
    now,
  };
}

/**
 * The saved state of the running actors. `settings` are the saved ones: what the command line
 * overrides for one run is never written, and neither is the console address of `--netcon`
 * (`netconOverride`): while the observer uses it, the address saved before stays written
 * (`savedNetcon`, that of the loaded state). A part whose snapshots did not change since the last
 * call is the very same object, so the store serialises only what changed (state-store.ts).
 */
export function savedStateBuilder(
  savedNetcon: NetconAddress,
  netconOverride: NetconAddress | null,
): (snapshots: Snapshots, revision: number, settings: Settings) => SavedState {
  const last = new Map<string, { from: unknown; part: unknown }>();
  /** The part `name` built from `from` (a context or a snapshot): the same object while `from` is. */
  const partOf = <T>(name: string, from: unknown, build: () => T): T => {
    let entry = last.get(name);
    if (!entry || entry.from !== from) {
      entry = { from, part: build() };
      last.set(name, entry);
    }
    return entry.part as T;
  };
  // The panels part: one saved panel per snapshot, rebuilt only when a panel's snapshot changed. A
  // loop over arrays, not a part per panel through partOf: the store collects on every group commit,
  // and a toggle changes nothing else (issue 18).
  const panelFrom: unknown[] = PANEL_IDS.map(() => null);
  const panelParts: PanelInput[] = [];
  let panels: SavedState['panels'] | null = null;
  let written = savedNetcon;
  let observer: { from: readonly unknown[]; part: NonNullable<SavedState['observer']> } | null = null;
  return (snapshots, revision, settings) => {
    // The settings, the address and the pinned strategy: the director and the link are rebuilt on start.
    const { settings: observerSettings, netcon, strategy } = snapshots.observer.context;
    const { pinned } = strategy;
    if (!netconOverride || !sameAddress(netcon, netconOverride)) written = netcon;
    if (
      !observer ||
      observer.from[0] !== observerSettings ||
      observer.from[1] !== written ||
      observer.from[2] !== pinned
    ) {
      const part = { settings: observerSettings, netcon: written, pinned };
      observer = { from: [observerSettings, written, pinned], part };
    }
    let panelChanged = panels === null;
    for (let i = 0; i < PANEL_IDS.length; i++) {
      const snapshot = snapshots[PANEL_IDS[i] as PanelId];
      if (panelFrom[i] === snapshot) continue;
      panelFrom[i] = snapshot;
      panelParts[i] = { visible: panelVisibility(snapshot), hideAt: snapshot.context.hideAt };
      panelChanged = true;
    }
    if (panelChanged) {
      const part: Partial<SavedState['panels']> = {};
      for (let i = 0; i < PANEL_IDS.length; i++) part[PANEL_IDS[i] as PanelId] = panelParts[i];
      panels = part as SavedState['panels'];
    }
    const host = snapshots.host.context;
    const vetoSession = snapshots.vetoSession.context;
    return {
      version: SAVED_STATE_VERSION,
      // Stamped by the store when it writes this document (state-store.ts, stamp).
      savedAt: '',
      revision,
      settings,
      host: partOf('host', host, () => ({
        presets: host.presets,
        colorPresetId: host.colorPresetId,
        roster: host.roster,
        mapFigures: host.mapFigures,
      })),
      match: snapshots.match.context,
      vetoSession: partOf('vetoSession', vetoSession, () => ({ session: vetoSession.session })),
      vetoReveal: snapshots.vetoReveal.context,
      sceneWindow: snapshots.sceneWindow.context,
      panels: panels as SavedState['panels'],
      production: snapshots.production.context,
      observer: observer.part,
      history: snapshots.history.context,
    };
  };
}

/**
 * What of each actor is saved, as the values (compared by identity) its saved part is built from,
 * beside savedStateBuilder which builds the parts. An actor absent here saves nothing: the OBS
 * connection (rebuilt on start, its retries cost no write) and the game actor (it changes with every
 * frame; what lasts of a frame it sends to the host and the match). Of the observer only the
 * settings and the address: its director moves with every frame and must cost no write either.
 */
type SavedFrom = { [K in ActorKey]?: (snapshot: SnapshotOf<K>) => readonly unknown[] };
const SAVED_FROM: SavedFrom = {
  host: ({ context }) => [context.presets, context.colorPresetId, context.roster, context.mapFigures],
  match: ({ context }) => [context],
  vetoSession: ({ context }) => [context.session],
  vetoReveal: ({ context }) => [context],
  sceneWindow: ({ context }) => [context],
  production: ({ context }) => [context],
  observer: ({ context }) => [context.settings, context.netcon, context.strategy.pinned],
  history: ({ context }) => [context],
  ...(Object.fromEntries(PANEL_IDS.map((id) => [id, (snapshot: unknown) => [snapshot]])) as SavedFrom),
};

/**
 * Whether a commit of the hub changed what is saved (so the store should write), from the sources
 * it changed and the snapshots they changed to. Remembers what it saw last, starting from `start`.
 */
export function savedChange(start: Snapshots): (sources: Iterable<string>, snapshots: Snapshots) => boolean {
  const fromOf = (key: ActorKey, snapshots: Snapshots) =>
    (SAVED_FROM[key] as ((snapshot: unknown) => readonly unknown[]) | undefined)?.(snapshots[key]);
  const last = new Map<string, readonly unknown[]>();
  for (const key of Object.keys(SAVED_FROM) as ActorKey[]) last.set(key, fromOf(key, start) ?? []);
  return (sources, snapshots) => {
    let changed = false;
    for (const key of sources) {
      const before = last.get(key);
      if (!before) continue;
      const now = fromOf(key as ActorKey, snapshots) ?? [];
      if (now.every((value, i) => value === before[i])) continue;
      last.set(key, now);
      changed = true;
    }
    return changed;
  };
}

/**
 * What the store saves, read from where the state lives: the hub's snapshots and revision, and the
 * saved settings. The store calls it when it writes; nothing climbs back up to the wiring.
 */
export function savedStateSource(
  hub: Pick<StateReads, 'snapshots' | 'revision'>,
  settings: Pick<SettingsOwner, 'saved'>,
  savedNetcon: NetconAddress,
  netconOverride: NetconAddress | null,
): () => SavedState {
  const savedStateOf = savedStateBuilder(savedNetcon, netconOverride);
  return () => savedStateOf(hub.snapshots(), hub.revision, settings.saved());
}
