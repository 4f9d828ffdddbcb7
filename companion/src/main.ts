import { runEntrypoint } from '@companion-module/base';
import { HudAutomationInstance } from './instance.ts';
import { UPGRADE_SCRIPTS } from './upgrades.ts';

runEntrypoint(HudAutomationInstance, UPGRADE_SCRIPTS);
