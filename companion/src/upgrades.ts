/**
 * Upgrade scripts for saved buttons, oldest first. Companion runs the ones a button has not seen.
 * Action ids are command names and option ids follow the payload schema (schema-options.ts), so a
 * command that is renamed or changes its payload gets a script here that rewrites saved buttons.
 * None has been needed yet: the module starts at the catalogue of hud-automation 0.1.0.
 */
import type { CompanionStaticUpgradeScript } from '@companion-module/base';
import type { ModuleConfig } from './config.ts';

export const UPGRADE_SCRIPTS: CompanionStaticUpgradeScript<ModuleConfig>[] = [];
