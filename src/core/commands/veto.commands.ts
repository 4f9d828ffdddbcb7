import { Type } from '@sinclair/typebox';
import { waitFor } from 'xstate';
import { normalizeMapName } from '../../../machines/map-names.ts';
import type { VetoStep } from '../../../machines/veto-rules.ts';
import { explainPool, explainSteps } from '../../../machines/veto-rules.ts';
import { explainSelection, isSessionComplete } from '../../../machines/veto-session.machine.ts';
import { resolveImportTarget } from '../../import/import-target.ts';
import type { ErrorCode } from '../../protocol/errors.ts';
import { conflict, ERROR_STATUS, invalidPayload, ServiceError } from '../../protocol/errors.ts';
import {
  BoFormatSchema,
  MapNameSchema,
  MapPoolSchema,
  OneOf,
  SideSchema,
  strict,
  TeamSchema,
  VetoStepSchema,
} from '../../protocol/schemas.ts';
import { vetoSettings } from '../../settings/settings.ts';
import { revealOf, stepView, vetoStatusOf } from '../views.ts';
import type { AnyCommand, CommandContext } from './command.ts';
import { defineCommand } from './command.ts';

/** The longest an import may take before the service gives up on the actor (the importer's own budget is 20 s). */
const IMPORT_DEADLINE_MS = 30_000;

function fullMapName(input: string, field: string): string {
  const map = normalizeMapName(input);
  if (!map) throw invalidPayload(`${field}: "${input}" is not a map name (for example mirage or de_mirage)`);
  return map;
}

const statusOf = ({ hub }: CommandContext) => vetoStatusOf(hub.snapshots());

function requireSession({ hud }: CommandContext) {
  const session = hud.snapshot('vetoSession').context.session;
  if (!session) throw conflict('no veto session is running: start one with veto_start');
  return session;
}

const importMatchVeto = defineCommand({
  id: 'import_match_veto',
  description:
    'Imports the veto of a FACEIT room or an HLTV match page (url or platformMatchId); apply sets it on the match, show opens the veto panel. Takes up to 20 s; 409 while the source has no veto yet.',
  payload: Type.Object(
    {
      url: Type.Optional(
        Type.String({
          maxLength: 2048,
          description: 'FACEIT room URL or HLTV match URL (blank counts as not sent)',
        }),
      ),
      platformMatchId: Type.Optional(
        Type.String({ maxLength: 128, description: 'FACEIT match id (blank counts as not sent)' }),
      ),
      apply: Type.Optional(
        Type.Boolean({ default: true, description: 'false reads the veto without changing the match' }),
      ),
      show: Type.Optional(
        Type.Boolean({ default: false, description: 'true opens the veto panel after the import' }),
      ),
    },
    strict,
  ),
  needsMainWindow: true,
  stateKeys: ['vetoVisible'],
  run: async ({ hud, requestId }, { url, platformMatchId, apply = true, show = false }) => {
    // A payload no importer accepts is refused before anything starts.
    resolveImportTarget({ url, platformMatchId });
    const actor = hud.actor('vetoSession');
    const running = actor.getSnapshot().context.importing;
    if (running) {
      throw conflict(
        `an import is already running (${running.url ?? running.platformMatchId}): try again when it has finished`,
      );
    }
    actor.send({
      type: 'veto.import',
      request: {
        requestId,
        ...(url ? { url } : {}),
        ...(platformMatchId ? { platformMatchId } : {}),
        apply,
        show,
      },
    });
    const done = await waitFor(actor, (snapshot) => snapshot.context.lastImport?.requestId === requestId, {
      timeout: IMPORT_DEADLINE_MS,
    });
    const outcome = done.context.lastImport;
    if (!outcome) throw new ServiceError('upstream_timeout', 'the import did not finish');
    if (!outcome.ok) {
      const code = (outcome.error.code in ERROR_STATUS ? outcome.error.code : 'upstream_error') as ErrorCode;
      throw new ServiceError(code, outcome.error.message);
    }
    const { provider, teamA, teamB, boFormat, steps, matchTime } = outcome.imported;
    return {
      provider,
      teamA,
      teamB,
      boFormat,
      steps: steps.map(stepView),
      ...(matchTime ? { matchTime } : {}),
      applied: outcome.applied,
      shown: outcome.shown,
    };
  },
});

const vetoReveal = defineCommand({
  id: 'veto_reveal',
  description:
    'Reveals veto steps on the HUD: mode next shows the next step, prev hides the last shown, all shows all, reset hides all; instant true shows every step at once, false turns on progressive reveal.',
  payload: Type.Object(
    {
      mode: Type.Optional(OneOf(['next', 'prev', 'reset', 'all'] as const)),
      instant: Type.Optional(Type.Boolean()),
    },
    { ...strict, minProperties: 1 },
  ),
  needsMainWindow: true,
  stateKeys: [],
  run: ({ hud, hub }, { mode, instant }) => {
    const total = hud.snapshot('match').context.veto?.length ?? 0;
    // The mode applies after the switch, so { instant: false, mode: 'reset' } starts a progressive reveal from zero.
    if (instant !== undefined) {
      hud.send('vetoReveal', { type: instant ? 'veto.reveal.instant' : 'veto.reveal.progressive', total });
    }
    if (mode) hud.send('vetoReveal', { type: `veto.reveal.${mode}`, total });
    return revealOf(hub.snapshots());
  },
});

const resetVeto = defineCommand({
  id: 'reset_veto',
  description: 'Clears the veto and all series maps (and stops a veto session).',
  payload: null,
  needsMainWindow: true,
  stateKeys: [],
  run: ({ hud }) => {
    hud.send('vetoSession', { type: 'veto.reset' });
    return { cleared: true };
  },
});

const vetoStart = defineCommand({
  id: 'veto_start',
  description:
    'Starts a manual veto session (replacing one in progress); the overlay shows the steps live. Team A bans first unless firstBanner is B.',
  payload: Type.Object(
    {
      boFormat: BoFormatSchema,
      teamA: TeamSchema,
      teamB: TeamSchema,
      firstBanner: Type.Optional(SideSchema),
      mapPool: Type.Optional(MapPoolSchema),
    },
    strict,
  ),
  needsMainWindow: true,
  stateKeys: [],
  run: (context, { boFormat, teamA, teamB, firstBanner = 'A', mapPool }) => {
    const pool = mapPool
      ? mapPool.map((map, i) => fullMapName(map, `mapPool[${i}]`))
      : [...vetoSettings(context.settings.current()).mapPool];
    const problem = explainPool(boFormat, pool);
    if (problem) {
      throw invalidPayload(
        mapPool
          ? `mapPool: ${problem}`
          : `the saved map pool (Veto > Map pool in the operator app): ${problem}; send a mapPool or change the saved pool`,
      );
    }
    context.hud.send('vetoSession', { type: 'veto.start', boFormat, teamA, teamB, firstBanner, pool });
    return statusOf(context);
  },
});

const vetoSelect = defineCommand({
  id: 'veto_select',
  description:
    'Plays the next turn of the veto session with this map; the service decides ban or pick and adds the decider.',
  payload: Type.Object({ map: MapNameSchema }, strict),
  needsMainWindow: true,
  stateKeys: [],
  run: (context, payload) => {
    const session = requireSession(context);
    if (isSessionComplete(session))
      throw conflict('the veto is complete: undo a step or start a new session');
    const map = fullMapName(payload.map, 'map');
    const problem = explainSelection(session, map);
    if (problem) throw invalidPayload(`map: ${problem}`);
    context.hud.send('vetoSession', { type: 'veto.select', map });
    return statusOf(context);
  },
});

const vetoUndo = defineCommand({
  id: 'veto_undo',
  description: 'Takes back the last ban or pick of the veto session (and the decider that came with it).',
  payload: null,
  needsMainWindow: true,
  stateKeys: [],
  run: (context) => {
    const session = requireSession(context);
    if (session.steps.length === 0) throw conflict('nothing to undo: no step has been played');
    context.hud.send('vetoSession', { type: 'veto.undo' });
    return statusOf(context);
  },
});

const vetoStatus = defineCommand({
  id: 'veto_status',
  description:
    'The manual veto session: format, teams, next step, remaining maps and steps; { active: false } without one.',
  payload: null,
  needsMainWindow: true,
  stateKeys: [],
  run: statusOf,
});

const vetoCancel = defineCommand({
  id: 'veto_cancel',
  description: 'Stops the veto session and shows the veto that was there before it.',
  payload: null,
  needsMainWindow: true,
  stateKeys: [],
  run: ({ hud }) => {
    hud.send('vetoSession', { type: 'veto.cancel' });
    return { active: false };
  },
});

const vetoSet = defineCommand({
  id: 'veto_set',
  description:
    'Sets a complete veto at once and fills the series maps; steps must follow the veto rules of the format, or nothing changes.',
  payload: Type.Object(
    {
      boFormat: BoFormatSchema,
      teamA: TeamSchema,
      teamB: TeamSchema,
      steps: Type.Array(VetoStepSchema, { minItems: 1, maxItems: 16 }),
    },
    strict,
  ),
  needsMainWindow: true,
  stateKeys: [],
  run: ({ hud }, { boFormat, teamA, teamB, steps: input }) => {
    const steps: VetoStep[] = input.map((step, i) => ({
      type: step.type,
      ...(step.team ? { team: step.team } : {}),
      map: fullMapName(step.map, `steps[${i}].map`),
    }));
    const problem = explainSteps(boFormat, steps);
    if (problem) throw invalidPayload(problem);
    hud.send('vetoSession', { type: 'veto.set', boFormat, teamA, teamB, steps });
    return { complete: true, steps: steps.map(stepView) };
  },
});

export const vetoCommands: AnyCommand[] = [
  importMatchVeto,
  vetoReveal,
  resetVeto,
  vetoStart,
  vetoSelect,
  vetoUndo,
  vetoStatus,
  vetoCancel,
  vetoSet,
];
