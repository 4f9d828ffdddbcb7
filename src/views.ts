/**
 * Snapshots to answers: pure functions, the only place that decides what a client sees. Raw
 * snapshots are never serialised.
 */
import type { ColorPreset, RosterEntry } from '../machines/host.machine.ts';
import { mapLabel } from '../machines/map-names.ts';
import type { SeriesMap, TeamFormat } from '../machines/match.machine.ts';
import { obsStatusOf } from '../machines/obs-connection.machine.ts';
import type { ProductionInput } from '../machines/production.machine.ts';
import type { Scene } from '../machines/scene-window.machine.ts';
import { revealedCount } from '../machines/veto-reveal.machine.ts';
import type { BoFormat, Side, StepType, Team, VetoStep } from '../machines/veto-rules.ts';
import { nextStep, remainingMaps } from '../machines/veto-rules.ts';
import { isSessionComplete } from '../machines/veto-session.machine.ts';
import type { SnapshotOf, Snapshots } from './hud-system.ts';

export interface HudState {
  revision: number;
  scoreboardVisible?: boolean;
  vetoVisible?: boolean;
  statsVisible?: boolean;
  roster: RosterEntry[];
  hudWindowOpen: boolean;
  mainWindowOpen: boolean;
  senScene: Scene | null;
  obs: { connection: 'connected' | 'connecting' | 'disconnected'; replayBufferActive: boolean };
}

export type HudStateKey = Exclude<keyof HudState, 'revision'>;

export interface StepView {
  type: StepType;
  team: Side | null;
  map: string;
}

export interface MapView {
  number: number;
  map: string;
  label: string;
  pickedBy: string;
  finished: boolean;
  scoreA: number;
  scoreB: number;
  winner: string | null;
}

export interface MatchSummary {
  eventName: string;
  teamFormat: TeamFormat;
  boFormat: BoFormat | null;
  teamA: Team | null;
  teamB: Team | null;
  maps: MapView[];
  seriesScore: { a: number; b: number };
  veto: { steps: StepView[]; revealed: number } | null;
}

export type VetoStatus =
  | { active: false }
  | {
      active: true;
      boFormat: BoFormat;
      teamA: Team;
      teamB: Team;
      complete: boolean;
      nextStep: { type: StepType; team: Side | null } | null;
      remainingMaps: string[];
      steps: StepView[];
    };

export interface RevealView {
  revealed: number;
  total: number;
  instant: boolean;
}

/** The name a team goes by on the HUD; "Team A" / "Team B" until the teams are set. */
export const teamName = (team: Team | null, side: Side) => team?.name ?? `Team ${side}`;

const panelVisible = (snapshot: SnapshotOf<'scoreboard'>): boolean | undefined =>
  snapshot.matches('unknown') ? undefined : snapshot.matches('shown');

export function hudStateOf(snapshots: Snapshots, revision: number): HudState {
  const state: HudState = {
    revision,
    roster: snapshots.host.context.roster,
    hudWindowOpen: panelVisible(snapshots.overlay) === true,
    mainWindowOpen: snapshots.host.context.mainWindowOpen,
    senScene: snapshots.sceneWindow.context.scene,
    obs: obsStatusOf(snapshots.obs),
  };
  // Panel flags stay absent until a command or the overlay has told them.
  const scoreboard = panelVisible(snapshots.scoreboard);
  const veto = panelVisible(snapshots.vetoPanel);
  const stats = panelVisible(snapshots.stats);
  if (scoreboard !== undefined) state.scoreboardVisible = scoreboard;
  if (veto !== undefined) state.vetoVisible = veto;
  if (stats !== undefined) state.statsVisible = stats;
  return state;
}

export const stepView = (step: VetoStep): StepView => ({
  type: step.type,
  team: step.team ?? null,
  map: step.map,
});

export function matchSummaryOf(snapshots: Snapshots): MatchSummary {
  const match = snapshots.match.context;
  const nameOf = (side: Side) => teamName(side === 'A' ? match.teamA : match.teamB, side);
  const maps = match.maps.map(
    (entry: SeriesMap, index): MapView => ({
      number: index + 1,
      map: entry.map,
      label: mapLabel(entry.map),
      pickedBy: entry.pickedBy === 'decider' ? 'decider' : nameOf(entry.pickedBy),
      finished: entry.finished,
      scoreA: entry.scoreA,
      scoreB: entry.scoreB,
      winner: entry.winner ? nameOf(entry.winner) : null,
    }),
  );
  const won = (side: Side) => match.maps.filter((entry) => entry.finished && entry.winner === side).length;
  return {
    eventName: match.eventName,
    teamFormat: match.teamFormat,
    boFormat: match.boFormat,
    teamA: match.teamA,
    teamB: match.teamB,
    maps,
    seriesScore: { a: won('A'), b: won('B') },
    veto: match.veto
      ? {
          steps: match.veto.map(stepView),
          revealed: revealedCount(snapshots.vetoReveal.context, match.veto.length),
        }
      : null,
  };
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

export function productionOf(snapshot: SnapshotOf<'production'>): ProductionInput {
  return snapshot.context;
}
