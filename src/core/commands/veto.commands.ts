import { waitFor } from 'xstate';
import { normalizeMapName } from '../../../machines/map-names.ts';
import type { VetoStep } from '../../../machines/veto-rules.ts';
import { explainPool, explainSteps } from '../../../machines/veto-rules.ts';
import { explainSelection, importLabel, isSessionComplete } from '../../../machines/veto-session.machine.ts';
import { resolveImportTarget } from '../../import/import-target.ts';
import type { ErrorCode } from '../../protocol/errors.ts';
import { conflict, ERROR_STATUS, invalidPayload, ServiceError } from '../../protocol/errors.ts';
import { vetoSettings } from '../../settings/settings.ts';
import { importChangesOf, revealOf, stepView, vetoStatusOf } from '../views.ts';
import type { AnyCommand, CommandContext } from './command.ts';
import { defineCommand } from './command.ts';
import { recordChange, recorded } from './history.commands.ts';

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

const importMatchVeto = defineCommand('import_match_veto', {
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
    // An applied import is recorded in the undo history in the cascade that applies it (one
    // revision): the veto session's snapshot is announced after the match and the reveal took it.
    const recording = actor.subscribe((snapshot) => {
      const outcome = snapshot.context.lastImport;
      if (outcome?.requestId !== requestId) return;
      recording.unsubscribe();
      if (outcome.ok && outcome.applied) recordChange(hud, importLabel(outcome.plan), outcome.before);
    });
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
    }).finally(() => recording.unsubscribe());
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
      changes: importChangesOf(outcome.plan),
    };
  },
});

const vetoReveal = defineCommand('veto_reveal', {
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

const resetVeto = defineCommand('reset_veto', {
  run: (context) =>
    recorded(context, 'Reset veto and maps', () => {
      context.hud.send('vetoSession', { type: 'veto.reset' });
      return { cleared: true as const };
    }),
});

const vetoStart = defineCommand('veto_start', {
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
    const label = `Veto started: ${teamA.name} vs ${teamB.name} (${boFormat})`;
    recorded(context, label, () =>
      context.hud.send('vetoSession', { type: 'veto.start', boFormat, teamA, teamB, firstBanner, pool }),
    );
    return statusOf(context);
  },
});

const vetoSelect = defineCommand('veto_select', {
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

const vetoUndo = defineCommand('veto_undo', {
  run: (context) => {
    const session = requireSession(context);
    if (session.steps.length === 0) throw conflict('nothing to undo: no step has been played');
    context.hud.send('vetoSession', { type: 'veto.undo' });
    return statusOf(context);
  },
});

const vetoStatus = defineCommand('veto_status', {
  run: statusOf,
});

const vetoCancel = defineCommand('veto_cancel', {
  run: (context) => {
    recorded(context, 'Veto cancelled', () => context.hud.send('vetoSession', { type: 'veto.cancel' }));
    return { active: false };
  },
});

const vetoSet = defineCommand('veto_set', {
  run: (context, { boFormat, teamA, teamB, steps: input }) => {
    const steps: VetoStep[] = input.map((step, i) => ({
      type: step.type,
      ...(step.team ? { team: step.team } : {}),
      map: fullMapName(step.map, `steps[${i}].map`),
    }));
    const problem = explainSteps(boFormat, steps);
    if (problem) throw invalidPayload(problem);
    recorded(context, `Veto set: ${teamA.name} vs ${teamB.name} (${boFormat})`, () =>
      context.hud.send('vetoSession', { type: 'veto.set', boFormat, teamA, teamB, steps }),
    );
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
