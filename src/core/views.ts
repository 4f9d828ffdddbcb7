/**
 * Snapshots to answers: pure functions, the only place that decides what a client sees. Raw
 * snapshots are never serialised.
 */

import { recorderStatusOf } from '../../machines/game-recorder.machine.ts';
import { otherSide } from '../../machines/game-sides.ts';
import type { HistoryInput } from '../../machines/history.machine.ts';
import type { ColorPreset } from '../../machines/host.machine.ts';
import { mapLabel } from '../../machines/map-names.ts';
import type { ImportPlan, SeriesMap } from '../../machines/match.machine.ts';
import { obsStatusOf } from '../../machines/obs-connection.machine.ts';
import { observerStatusOf } from '../../machines/observer.machine.ts';
import { panelVisibility } from '../../machines/panel.machine.ts';
import { ACTORS } from '../../machines/supervisor.machine.ts';
import { SUBSYSTEM_KEYS } from '../../machines/system-ids.ts';
import { logoStatusOf } from '../../machines/team-logo.ts';
import { revealedCount } from '../../machines/veto-reveal.machine.ts';
import type { Side, Team, VetoStep } from '../../machines/veto-rules.ts';
import { nextStep, remainingMaps, seriesMapsOf } from '../../machines/veto-rules.ts';
import { isSessionComplete } from '../../machines/veto-session.machine.ts';
import { launchAdviceOf } from '../observer/netcon-launch.ts';
import type {
  HudState,
  MapView,
  MatchSummary,
  RevealView,
  StepView,
  StorageStatus,
  VetoStatus,
} from '../protocol/answers.ts';
import type { ImportChanges } from '../protocol/history.ts';
import type { ObserverView } from '../protocol/observer.ts';
import { PANELS } from '../protocol/panels.ts';
import type { RecorderView } from '../protocol/recorder.ts';
import type { Snapshot } from '../protocol/websocket.ts';
import type { ActorKey, SnapshotOf, Snapshots } from './hud-system.ts';

/** A part of the HUD state, as the contract names it (a command's `stateKeys`). */
export type { HudStateKey } from '../protocol/commands.ts';
export type { HudState, MapView, MatchSummary, RevealView, StepView, VetoStatus };

/** The name a team goes by on the HUD; "Team A" / "Team B" until the teams are set. */
export const teamName = (team: Team | null, side: Side) => team?.name ?? `Team ${side}`;

const panelVisible = (snapshot: SnapshotOf<'scoreboard'>): boolean | undefined =>
  panelVisibility(snapshot) ?? undefined;

/** The HUD state a commit started from: parts whose snapshot did not change are reused, not rebuilt. */
export interface HudStateBefore {
  snapshots: Snapshots;
  state: HudState;
}

/**
 * The actors the HUD state is built from (hudStateOf): every panel and the roster's entries that say
 * so (`hudState` in machines/supervisor.machine.ts). The hub rebuilds it when one of them changed.
 */
export const HUD_STATE_SOURCES: readonly ActorKey[] = [
  ...PANELS.map((panel) => panel.id),
  ...SUBSYSTEM_KEYS.filter((key) => ACTORS[key].hudState),
];

export function hudStateOf(
  snapshots: Snapshots,
  revision: number,
  storage: StorageStatus,
  before?: HudStateBefore,
): HudState {
  const teamASide = snapshots.match.context.teamASide;
  const state: HudState = {
    revision,
    roster: snapshots.host.context.roster,
    hudWindowOpen: false,
    mainWindowOpen: snapshots.host.context.mainWindowOpen,
    senScene: snapshots.sceneWindow.context.scene,
    obs: before && before.snapshots.obs === snapshots.obs ? before.state.obs : obsStatusOf(snapshots.obs),
    sides:
      before && before.state.sides.teamA === teamASide
        ? before.state.sides
        : { teamA: teamASide, teamB: otherSide(teamASide) },
    gameReceiving: snapshots.host.context.gameReceiving,
    storage,
    history:
      before && before.snapshots.history === snapshots.history
        ? before.state.history
        : historyOf(snapshots.history.context),
  };
  // Panel flags stay absent until a command or the overlay has told them (the overlay window's is
  // always there: closed until opened).
  for (const { id, stateKey } of PANELS) {
    const visible =
      before && before.snapshots[id] === snapshots[id] ? before.state[stateKey] : panelVisible(snapshots[id]);
    if (stateKey === 'hudWindowOpen') state.hudWindowOpen = visible === true;
    else if (visible !== undefined) state[stateKey] = visible;
  }
  return state;
}

/** The undo history as clients see it: what was done and when, without the states kept to restore. */
export function historyOf({ undo, redo }: HistoryInput): HudState['history'] {
  const entry = ({ label, at }: { label: string; at: string }) => ({ label, at });
  return { undo: undo.map(entry), redo: redo.map(entry) };
}

export const stepView = (step: VetoStep): StepView => ({
  type: step.type,
  team: step.team ?? null,
  map: step.map,
});

/** The summary of the match, as the pages and the answers show it. */
export function matchSummaryOf(snapshots: Snapshots): MatchSummary {
  const match = snapshots.match.context;
  const nameOf = (side: Side) => teamName(side === 'A' ? match.teamA : match.teamB, side);
  const revealed = match.veto ? revealedCount(snapshots.vetoReveal.context, match.veto.length) : 0;
  const shown = revealedMaps(match.maps, match.veto, revealed);
  const maps = match.maps.map(
    (entry: SeriesMap, index): MapView => ({
      number: index + 1,
      map: entry.map,
      label: mapLabel(entry.map),
      pickedBy: entry.pickedBy === 'decider' ? 'decider' : nameOf(entry.pickedBy),
      pickedSide: entry.pickedBy,
      finished: entry.finished,
      scoreA: entry.scoreA,
      scoreB: entry.scoreB,
      winner: entry.winner ? nameOf(entry.winner) : null,
      winnerSide: entry.winner,
      revealed: shown[index] === true,
    }),
  );
  const won = (side: Side) => match.maps.filter((entry) => entry.finished && entry.winner === side).length;
  return {
    eventName: match.eventName,
    teamFormat: match.teamFormat,
    boFormat: match.boFormat,
    teamA: match.teamA,
    teamB: match.teamB,
    logos: logosOf(match),
    maps,
    seriesScore: { a: won('A'), b: won('B') },
    veto: match.veto ? { steps: match.veto.map(stepView), revealed } : null,
  };
}

/**
 * Which series maps the broadcast pages may show: each map is the pick or the decider of a step of
 * the veto on the HUD, shown once that step is revealed. A map no step of that veto gives (the
 * series from before a session still being played) is not shown; without a veto every map is.
 */
function revealedMaps(maps: readonly SeriesMap[], veto: readonly VetoStep[] | null, revealed: number) {
  if (veto === null) return maps.map(() => true);
  const fromRevealed = seriesMapsOf(veto.slice(0, revealed));
  return maps.map((entry, index) => {
    const step = fromRevealed[index];
    return step !== undefined && step.map === entry.map && (step.team ?? 'decider') === entry.pickedBy;
  });
}

/** The logos as the pages show them: the previous summary's while they are the same. */
function logosOf(match: Snapshots['match']['context']): MatchSummary['logos'] {
  return { A: logoStatusOf(match.teamA?.logo, match.logos), B: logoStatusOf(match.teamB?.logo, match.logos) };
}

export function vetoStatusOf(snapshots: Snapshots): VetoStatus {
  const session = snapshots.vetoSession.context.session;
  if (!session) return { active: false };
  const match = snapshots.match.context;
  return {
    active: true,
    boFormat: session.boFormat,
    teamA: match.teamA ?? { name: teamName(null, 'A') },
    teamB: match.teamB ?? { name: teamName(null, 'B') },
    complete: isSessionComplete(session),
    nextStep: nextStep(session.boFormat, session.pool.length, session.firstBanner, session.steps.length),
    remainingMaps: remainingMaps(session.pool, session.steps),
    steps: session.steps.map(stepView),
  };
}

export function revealOf(snapshots: Snapshots): RevealView {
  const total = snapshots.match.context.veto?.length ?? 0;
  const reveal = snapshots.vetoReveal.context;
  return { revealed: revealedCount(reveal, total), total, instant: reveal.instant };
}

export function presetsOf(snapshot: SnapshotOf<'host'>): {
  presets: ColorPreset[];
  activePresetId: string | null;
} {
  return { presets: snapshot.context.presets, activePresetId: snapshot.context.colorPresetId };
}

/** The production settings; the smart observer's are the observer actor's (their one owner). */
export function productionOf(snapshots: Pick<Snapshots, 'production' | 'observer'>): Snapshot['production'] {
  return { ...snapshots.production.context, smartObserver: snapshots.observer.context.settings };
}

/** Recording and replaying game data, as GET /api/recordings and the `recorder` event show them. */
export function recorderViewOf(snapshot: SnapshotOf<'recorder'>): RecorderView {
  const { state, recording, replay, ended, recordings } = recorderStatusOf(snapshot);
  return {
    state,
    // Not the frame count: it moves with every frame.
    recording: recording && { file: recording.file, startedAt: recording.startedAt },
    replay,
    ended,
    recordings,
  };
}

/** `[v6]:port` for an IPv6 address, `host:port` otherwise. */
const addressText = (host: string, port: number) =>
  host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;

/** The observer as GET /api/observer and the `observer` event show it (no scores: they move every frame). */
export function observerViewOf(snapshot: SnapshotOf<'observer'>): ObserverView {
  const status = observerStatusOf(snapshot);
  const { link, suggestion } = status;
  const connection =
    link.status === 'connected'
      ? 'connected'
      : link.reason === 'not_auto'
        ? 'off'
        : link.reason === null
          ? 'connecting'
          : 'disconnected';
  const cuts = status.cuts.map(
    ({ slot, name, steamid, reason, text, at, sent, strategy, outcome, followedAfterMs }) => ({
      slot,
      name,
      steamid,
      reason,
      text,
      at,
      sent,
      strategy,
      outcome,
      followedAfterMs,
    }),
  );
  const address = addressText(link.netcon.host, link.netcon.port);
  return {
    ...status.settings,
    subscriptionActive: snapshot.context.subscriptionActive,
    state: status.state,
    blockedBy: status.blockedBy,
    link: {
      connection,
      address,
      host: link.netcon.host,
      port: link.netcon.port,
      reason: link.reason,
      message: link.message,
    },
    launch: launchAdviceOf(link.netcon.host, link.netcon.port, address, link.reason),
    cameraFollows: status.cameraFollows,
    camera: status.camera,
    suggestion: suggestion
      ? {
          slot: suggestion.slot,
          name: suggestion.name,
          steamid: suggestion.steamid,
          side: suggestion.side,
          reason: suggestion.reason,
          text: suggestion.text,
          since: suggestion.since,
        }
      : null,
    holdingUntil: status.holdingUntil,
    lastCut: cuts.at(-1) ?? null,
    cuts,
  };
}

/** The player the stats panel shows, with the figures of his provider. */
export function statsPlayerOf({ stats: { context } }: Pick<Snapshots, 'stats'>): Snapshot['statsPlayer'] {
  return { player: context.player, durationMs: context.durationMs };
}

/** What an import changes on the match (or would, with apply false), from the plan the match applies. */
export function importChangesOf(plan: ImportPlan): ImportChanges {
  const lostAt = new Set(plan.lost.map(({ index }) => index));
  return {
    teamA: plan.teamA,
    teamB: plan.teamB,
    teamsKept: plan.teamsKept,
    swapped: plan.swapped,
    maps: plan.maps.map((entry, index) => ({
      number: index + 1,
      map: entry.map,
      label: mapLabel(entry.map),
      keepsResult: !lostAt.has(index) && (entry.finished || entry.scoreA + entry.scoreB > 0),
    })),
    lostResults: plan.lost.map(({ index, entry }) => ({
      number: index + 1,
      map: entry.map,
      label: mapLabel(entry.map),
      scoreA: entry.scoreA,
      scoreB: entry.scoreB,
      finished: entry.finished,
    })),
  };
}
