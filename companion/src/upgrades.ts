/**
 * Upgrade scripts for saved connections and buttons, oldest first. Companion runs the ones a
 * connection has not seen (its `lastUpgradeIndex`), on start and on importing an export. Action ids
 * are command names and option ids follow the payload schema (schema-options.ts), so a command that
 * is renamed or changes its payload gets a script here that rewrites saved buttons.
 */
import type {
  CompanionMigrationAction,
  CompanionStaticUpgradeScript,
} from '@companion-module/base';
import { COMMAND_FORMS } from './catalogue.ts';
import type { ModuleConfig } from './config.ts';

/**
 * 0.1.0 -> 0.2.0. Number options (`set_map_result.scoreA`, `show_player_stats.slot` …) became text
 * inputs that accept variables: a saved number becomes its digits, so the field shows it. The
 * variable groups are new config fields: a connection saved before keeps the variables it had
 * (both groups off) instead of publishing 70 new ones on its own.
 */
export const numbersToText: CompanionStaticUpgradeScript<ModuleConfig> = (_context, props) => {
  const updatedActions: CompanionMigrationAction[] = [];
  for (const action of props.actions) {
    const form = COMMAND_FORMS.get(action.actionId);
    if (!form) continue;
    let changed = false;
    for (const field of form.fields) {
      if (field.form !== 'number') continue;
      const value = action.options[field.id];
      if (typeof value === 'number') {
        action.options[field.id] = String(value);
        changed = true;
      }
    }
    if (changed) updatedActions.push(action);
  }
  const config = props.config;
  const updatedConfig =
    config && (config.variablesGame === undefined || config.variablesPlayers === undefined)
      ? { ...config, variablesGame: config.variablesGame ?? false, variablesPlayers: config.variablesPlayers ?? false }
      : null;
  return { updatedConfig, updatedActions, updatedFeedbacks: [] };
};

export const UPGRADE_SCRIPTS: CompanionStaticUpgradeScript<ModuleConfig>[] = [numbersToText];
