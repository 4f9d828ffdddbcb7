import type { VetoStep } from '../../machines/veto-rules.ts';

/** A legal bo3 over the seven Active Duty maps, team A banning first, full map names. */
export const BO3_ACTIVE_DUTY: VetoStep[] = [
  { type: 'ban', team: 'A', map: 'de_ancient' },
  { type: 'ban', team: 'B', map: 'de_anubis' },
  { type: 'pick', team: 'A', map: 'de_dust2' },
  { type: 'pick', team: 'B', map: 'de_inferno' },
  { type: 'ban', team: 'A', map: 'de_mirage' },
  { type: 'ban', team: 'B', map: 'de_nuke' },
  { type: 'decider', map: 'de_overpass' },
];
