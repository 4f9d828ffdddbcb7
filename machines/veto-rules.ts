/**
 * The veto rules of the spec as plain functions: which step comes next for a format and a pool,
 * and whether a whole list of steps is legal. The veto session machine uses them in its guards,
 * the command handlers use them to explain a refusal, and the importers use them to check a source.
 */

export const BO_FORMATS = ['bo1', 'bo3', 'bo5'] as const;
export type BoFormat = (typeof BO_FORMATS)[number];
export type Side = 'A' | 'B';
export const STEP_TYPES = ['ban', 'pick', 'decider'] as const;
export type StepType = (typeof STEP_TYPES)[number];

export interface Team {
  name: string;
  logo?: string;
  /** A short tag (NAVI, G2): 1 to 6 characters (machines/team-logo.ts). */
  tag?: string;
}

export interface VetoStep {
  type: StepType;
  /** Absent for the decider. */
  team?: Side;
  /** Full map name (`de_mirage`). */
  map: string;
}

/** Fewest and most maps a pool may hold for each format. */
export const POOL_SIZE = { min: { bo1: 2, bo3: 5, bo5: 5 }, max: 16 } as const;

export const otherSide = (side: Side): Side => (side === 'A' ? 'B' : 'A');

/**
 * The types of every step for a format and a pool size, decider included.
 * bo1: bans until one map is left. bo3: bans until 5 are left, pick, pick, ban, ban, decider.
 * bo5: bans until 5 are left, four picks, decider.
 */
export function stepOrder(boFormat: BoFormat, poolSize: number): StepType[] {
  // Pools are checked (explainPool) before they get here; a smaller one simply has no leading bans.
  if (boFormat === 'bo1') return [...Array<StepType>(Math.max(0, poolSize - 1)).fill('ban'), 'decider'];
  const leadingBans = Array<StepType>(Math.max(0, poolSize - 5)).fill('ban');
  const tail: StepType[] =
    boFormat === 'bo3'
      ? ['pick', 'pick', 'ban', 'ban', 'decider']
      : ['pick', 'pick', 'pick', 'pick', 'decider'];
  return [...leadingBans, ...tail];
}

/** Why a pool cannot be used for a format, or null when it can. */
export function explainPool(boFormat: BoFormat, pool: readonly string[]): string | null {
  const min = POOL_SIZE.min[boFormat];
  if (pool.length < min || pool.length > POOL_SIZE.max) {
    return `a ${boFormat} veto needs a map pool of ${min} to ${POOL_SIZE.max} maps, got ${pool.length}`;
  }
  const seen = new Set<string>();
  for (const map of pool) {
    if (seen.has(map)) return `mapPool lists ${map} twice`;
    seen.add(map);
  }
  return null;
}

/** The next step of a manual session (turns alternate strictly from the first banner), or null when complete. */
export function nextStep(
  boFormat: BoFormat,
  poolSize: number,
  firstBanner: Side,
  played: number,
): { type: StepType; team: Side | null } | null {
  const order = stepOrder(boFormat, poolSize);
  const type = order[played];
  if (type === undefined) return null;
  if (type === 'decider') return { type, team: null };
  return { type, team: played % 2 === 0 ? firstBanner : otherSide(firstBanner) };
}

/** Maps of the pool that no step has taken yet. */
export function remainingMaps(pool: readonly string[], steps: readonly VetoStep[]): string[] {
  const taken = new Set(steps.map((step) => step.map));
  return pool.filter((map) => !taken.has(map));
}

/**
 * Why a complete list of steps breaks the rules, or null when it is legal. The pool is the maps of
 * the steps themselves, so the order is checked for a pool of steps.length maps. Team attribution
 * is free (sources such as a Major bo1 do not alternate), but every ban and pick names a team and
 * the decider names none.
 */
export function explainSteps(boFormat: BoFormat, steps: readonly VetoStep[]): string | null {
  const min = POOL_SIZE.min[boFormat];
  if (steps.length < min || steps.length > POOL_SIZE.max) {
    return `a ${boFormat} veto has ${min} to ${POOL_SIZE.max} steps (one per map of the pool), got ${steps.length}`;
  }
  const order = stepOrder(boFormat, steps.length);
  const seen = new Set<string>();
  for (const [index, step] of steps.entries()) {
    const where = `steps[${index}]`;
    if (step.type !== order[index]) {
      return `${where}: a ${boFormat} veto over ${steps.length} maps goes ${order.join(', ')}; step ${index + 1} must be ${order[index]}, got ${step.type}`;
    }
    if (step.type === 'decider' && step.team !== undefined) return `${where}: the decider has no team`;
    if (step.type !== 'decider' && step.team !== 'A' && step.team !== 'B') {
      return `${where}: a ${step.type} needs team A or B`;
    }
    if (seen.has(step.map)) return `${where}: ${step.map} is already used by an earlier step`;
    seen.add(step.map);
  }
  return null;
}

/** The series maps a complete veto gives: the picks in order, then the decider. */
export function seriesMapsOf(steps: readonly VetoStep[]): VetoStep[] {
  return [
    ...steps.filter((step) => step.type === 'pick'),
    ...steps.filter((step) => step.type === 'decider'),
  ];
}

/** Whether two vetoes are the same steps in the same order (type, team and map each). */
export function sameSteps(a: readonly VetoStep[] | null, b: readonly VetoStep[] | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.length === b.length &&
    a.every((step, i) => {
      const other = b[i];
      return (
        other !== undefined && step.type === other.type && step.team === other.team && step.map === other.map
      );
    })
  );
}
