import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BoFormat, Side, StepType, VetoStep } from '../../machines/veto-rules.ts';
import {
  BO_FORMATS,
  explainPool,
  explainSteps,
  nextStep,
  otherSide,
  POOL_SIZE,
  remainingMaps,
  seriesMapsOf,
  stepOrder,
} from '../../machines/veto-rules.ts';
import { specOrder, specTurn } from '../helpers/model.ts';
import { BO3_ACTIVE_DUTY } from '../helpers/vetoes.ts';

const ban = (n: number): StepType[] => Array.from({ length: n }, () => 'ban');

const POOL7 = ['de_ancient', 'de_anubis', 'de_dust2', 'de_inferno', 'de_mirage', 'de_nuke', 'de_overpass'];

const BO3 = BO3_ACTIVE_DUTY;

describe('stepOrder', () => {
  const table: Array<[BoFormat, number, StepType[]]> = [
    ['bo1', 2, ['ban', 'decider']],
    ['bo1', 3, ['ban', 'ban', 'decider']],
    ['bo1', 7, [...ban(6), 'decider']],
    ['bo1', 16, [...ban(15), 'decider']],
    ['bo3', 5, ['pick', 'pick', 'ban', 'ban', 'decider']],
    ['bo3', 6, ['ban', 'pick', 'pick', 'ban', 'ban', 'decider']],
    ['bo3', 7, ['ban', 'ban', 'pick', 'pick', 'ban', 'ban', 'decider']],
    ['bo3', 16, [...ban(11), 'pick', 'pick', 'ban', 'ban', 'decider']],
    ['bo5', 5, ['pick', 'pick', 'pick', 'pick', 'decider']],
    ['bo5', 7, ['ban', 'ban', 'pick', 'pick', 'pick', 'pick', 'decider']],
    ['bo5', 16, [...ban(11), 'pick', 'pick', 'pick', 'pick', 'decider']],
  ];
  for (const [boFormat, size, order] of table) {
    it(`${boFormat} over ${size} maps: ${order.join(', ')}`, () => {
      expect(stepOrder(boFormat, size)).toEqual(order);
    });
  }

  it('has one step per map and plays as many series maps as the format says, at every legal pool size', () => {
    for (const boFormat of BO_FORMATS) {
      for (let size = POOL_SIZE.min[boFormat]; size <= POOL_SIZE.max; size++) {
        const order = stepOrder(boFormat, size);
        expect(order).toHaveLength(size);
        expect(order.filter((type) => type === 'decider')).toHaveLength(1);
        expect(order.at(-1)).toBe('decider');
        expect(order.filter((type) => type === 'pick')).toHaveLength({ bo1: 0, bo3: 2, bo5: 4 }[boFormat]);
      }
    }
  });

  it('is only defined within POOL_SIZE, and explainPool refuses every size outside it', () => {
    for (const boFormat of BO_FORMATS) {
      const below = POOL_SIZE.min[boFormat] - 1;
      expect(explainPool(boFormat, POOL7.slice(0, below))).toMatch(/needs a map pool of/);
      expect(
        explainPool(
          boFormat,
          Array.from({ length: POOL_SIZE.max + 1 }, (_, i) => `de_m${i}`),
        ),
      ).toMatch(new RegExp(`${POOL_SIZE.max} maps, got ${POOL_SIZE.max + 1}`));
    }
  });
});

describe('nextStep', () => {
  it('bo1 over 7 maps, team A first: bans alternate from A, then the decider, then nothing', () => {
    const turns = Array.from({ length: 8 }, (_, played) => nextStep('bo1', 7, 'A', played));
    expect(turns).toEqual([
      { type: 'ban', team: 'A' },
      { type: 'ban', team: 'B' },
      { type: 'ban', team: 'A' },
      { type: 'ban', team: 'B' },
      { type: 'ban', team: 'A' },
      { type: 'ban', team: 'B' },
      { type: 'decider', team: null },
      null,
    ]);
  });

  it('bo3 over 7 maps, team B first', () => {
    const turns = Array.from({ length: 8 }, (_, played) => nextStep('bo3', 7, 'B', played));
    expect(turns).toEqual([
      { type: 'ban', team: 'B' },
      { type: 'ban', team: 'A' },
      { type: 'pick', team: 'B' },
      { type: 'pick', team: 'A' },
      { type: 'ban', team: 'B' },
      { type: 'ban', team: 'A' },
      { type: 'decider', team: null },
      null,
    ]);
  });

  it('bo5 over 5 maps, team A first: four picks then the decider', () => {
    const turns = Array.from({ length: 6 }, (_, played) => nextStep('bo5', 5, 'A', played));
    expect(turns).toEqual([
      { type: 'pick', team: 'A' },
      { type: 'pick', team: 'B' },
      { type: 'pick', team: 'A' },
      { type: 'pick', team: 'B' },
      { type: 'decider', team: null },
      null,
    ]);
  });

  it('otherSide swaps the teams', () => {
    expect([otherSide('A'), otherSide('B')]).toEqual(['B', 'A']);
  });
});

describe('explainPool', () => {
  it('accepts the Active Duty pool for every format and a two-map bo1', () => {
    for (const boFormat of BO_FORMATS) expect(explainPool(boFormat, POOL7)).toBeNull();
    expect(explainPool('bo1', ['de_mirage', 'de_nuke'])).toBeNull();
  });

  it('refuses pools too small, too large or listing a map twice, with the reason', () => {
    expect(explainPool('bo1', ['de_mirage'])).toBe('a bo1 veto needs a map pool of 2 to 16 maps, got 1');
    expect(explainPool('bo3', POOL7.slice(0, 4))).toBe('a bo3 veto needs a map pool of 5 to 16 maps, got 4');
    expect(explainPool('bo5', [])).toBe('a bo5 veto needs a map pool of 5 to 16 maps, got 0');
    expect(explainPool('bo3', [...POOL7.slice(0, 5), 'de_mirage'])).toBe('mapPool lists de_mirage twice');
  });
});

describe('remainingMaps and seriesMapsOf', () => {
  it('remainingMaps keeps the pool order and drops every map a step took', () => {
    expect(remainingMaps(POOL7, BO3.slice(0, 3))).toEqual([
      'de_inferno',
      'de_mirage',
      'de_nuke',
      'de_overpass',
    ]);
    expect(remainingMaps(POOL7, [])).toEqual(POOL7);
    expect(remainingMaps(POOL7, BO3)).toEqual([]);
    // A step on a map outside the pool takes nothing from it.
    expect(remainingMaps(['de_mirage', 'de_nuke'], [{ type: 'ban', team: 'A', map: 'de_train' }])).toEqual([
      'de_mirage',
      'de_nuke',
    ]);
  });

  it('seriesMapsOf gives the picks in order, then the decider', () => {
    expect(seriesMapsOf(BO3).map((step) => step.map)).toEqual(['de_dust2', 'de_inferno', 'de_overpass']);
    expect(
      seriesMapsOf([
        { type: 'ban', team: 'B', map: 'de_nuke' },
        { type: 'decider', map: 'de_mirage' },
      ]),
    ).toEqual([{ type: 'decider', map: 'de_mirage' }]);
    const bo5: VetoStep[] = [
      { type: 'pick', team: 'A', map: 'de_a1' },
      { type: 'pick', team: 'B', map: 'de_b2' },
      { type: 'pick', team: 'A', map: 'de_c3' },
      { type: 'pick', team: 'B', map: 'de_d4' },
      { type: 'decider', map: 'de_e5' },
    ];
    expect(seriesMapsOf(bo5)).toEqual(bo5);
    expect(seriesMapsOf([])).toEqual([]);
  });
});

describe('explainSteps', () => {
  it('accepts legal vetoes of every format, with free team attribution', () => {
    expect(explainSteps('bo3', BO3)).toBeNull();
    // A Major bo1 where one team bans twice in a row: the source decides who banned.
    const major: VetoStep[] = [
      { type: 'ban', team: 'A', map: 'de_ancient' },
      { type: 'ban', team: 'A', map: 'de_anubis' },
      { type: 'ban', team: 'B', map: 'de_dust2' },
      { type: 'decider', map: 'de_mirage' },
    ];
    expect(explainSteps('bo1', major)).toBeNull();
    expect(
      explainSteps('bo5', [
        { type: 'pick', team: 'B', map: 'de_a1' },
        { type: 'pick', team: 'A', map: 'de_b2' },
        { type: 'pick', team: 'B', map: 'de_c3' },
        { type: 'pick', team: 'A', map: 'de_d4' },
        { type: 'decider', map: 'de_e5' },
      ]),
    ).toBeNull();
  });

  const refusals: Array<[string, BoFormat, VetoStep[], RegExp]> = [
    ['too few steps', 'bo3', BO3.slice(3), /a bo3 veto has 5 to 16 steps \(one per map of the pool\), got 4/],
    [
      'one step',
      'bo1',
      [{ type: 'decider', map: 'de_mirage' }],
      /a bo1 veto has 2 to 16 steps \(one per map of the pool\), got 1/,
    ],
    [
      'a pick in a bo1',
      'bo1',
      [
        { type: 'pick', team: 'A', map: 'de_nuke' },
        { type: 'decider', map: 'de_mirage' },
      ],
      /step 1 must be ban, got pick/,
    ],
    [
      'a decider that is not last',
      'bo3',
      [BO3[6], ...BO3.slice(0, 6)] as VetoStep[],
      /steps\[0\].*step 1 must be ban, got decider/,
    ],
    [
      'no decider at the end',
      'bo3',
      [...BO3.slice(0, 6), { type: 'ban', team: 'A', map: 'de_train' }],
      /step 7 must be decider, got ban/,
    ],
    [
      'a team on the decider',
      'bo3',
      [...BO3.slice(0, 6), { type: 'decider', team: 'B', map: 'de_overpass' }],
      /steps\[6\]: the decider has no team/,
    ],
    [
      'a ban without a team',
      'bo3',
      [{ type: 'ban', map: 'de_ancient' }, ...BO3.slice(1)],
      /steps\[0\]: a ban needs team A or B/,
    ],
    [
      'a map used twice',
      'bo3',
      BO3.map((step, i) => (i === 5 ? { ...step, map: 'de_ancient' } : step)),
      /steps\[5\]: de_ancient is already used by an earlier step/,
    ],
    [
      '17 steps',
      'bo1',
      [
        ...Array.from({ length: 16 }, (_, i): VetoStep => ({ type: 'ban', team: 'A', map: `de_m${i}` })),
        { type: 'decider', map: 'de_x' },
      ],
      /got 17/,
    ],
  ];
  for (const [name, boFormat, steps, message] of refusals) {
    it(`refuses ${name}, and says why`, () => {
      expect(explainSteps(boFormat, steps)).toMatch(message);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Properties

const nameChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789');
const mapNames = (count: number) =>
  fc.uniqueArray(
    fc.string({ unit: nameChar, minLength: 2, maxLength: 12 }).map((name) => `de_${name}`),
    { minLength: count, maxLength: count },
  );

/** A format and a pool of a legal size for it, with distinct random names. */
const poolArb = fc
  .constantFrom<BoFormat>(...BO_FORMATS)
  .chain((boFormat) =>
    fc
      .integer({ min: POOL_SIZE.min[boFormat], max: POOL_SIZE.max })
      .chain((size) => mapNames(size).map((pool) => ({ boFormat, pool }))),
  );

/** Plays a whole manual session with the rules' own turn functions, choosing a free map each turn. */
function playSession(
  boFormat: BoFormat,
  pool: readonly string[],
  firstBanner: Side,
  choices: readonly number[],
): VetoStep[] {
  const steps: VetoStep[] = [];
  for (let played = 0; played <= pool.length; played++) {
    const turn = nextStep(boFormat, pool.length, firstBanner, played);
    if (!turn) break;
    const free = remainingMaps(pool, steps);
    if (turn.type === 'decider') {
      expect(free, 'exactly one map is left for the decider').toHaveLength(1);
      expect(turn.team).toBeNull();
      steps.push({ type: 'decider', map: free[0] as string });
    } else {
      const map = free[(choices[played] ?? 0) % free.length] as string;
      steps.push({ type: turn.type, team: turn.team as Side, map });
    }
  }
  return steps;
}

describe('veto rules, properties', () => {
  it('every legal manual session completes by the rules of its format', () => {
    fc.assert(
      fc.property(
        poolArb,
        fc.constantFrom<Side>('A', 'B'),
        fc.array(fc.nat(), { minLength: POOL_SIZE.max, maxLength: POOL_SIZE.max }),
        ({ boFormat, pool }, firstBanner, choices) => {
          const steps = playSession(boFormat, pool, firstBanner, choices);
          // The type order of the spec, written apart from stepOrder.
          expect(steps.map((step) => step.type)).toEqual(specOrder(boFormat, pool.length));
          // Strict alternation from the first banner; the decider last, with no team.
          for (const [index, step] of steps.slice(0, -1).entries()) {
            expect(step.team).toBe(specTurn(firstBanner, index));
          }
          expect(steps.at(-1)).toEqual({ type: 'decider', map: expect.any(String) });
          expect('team' in (steps.at(-1) as VetoStep)).toBe(false);
          // Every map of the pool used exactly once.
          expect(steps.map((step) => step.map).sort()).toEqual([...pool].sort());
          expect(remainingMaps(pool, steps)).toEqual([]);
          expect(nextStep(boFormat, pool.length, firstBanner, steps.length)).toBeNull();
          // veto_set takes what a manual session plays, and the series has as many maps as the format.
          expect(explainSteps(boFormat, steps)).toBeNull();
          expect(seriesMapsOf(steps)).toHaveLength({ bo1: 1, bo3: 3, bo5: 5 }[boFormat]);
        },
      ),
      { numRuns: 300 },
    );
  });

  /** A legal complete veto with random teams on bans and picks (attribution is free). */
  const legalVeto = poolArb.chain(({ boFormat, pool }) =>
    fc
      .array(fc.constantFrom<Side>('A', 'B'), { minLength: pool.length, maxLength: pool.length })
      .map((teams) => ({
        boFormat,
        steps: stepOrder(boFormat, pool.length).map(
          (type, i): VetoStep =>
            type === 'decider'
              ? { type, map: pool[i] as string }
              : { type, team: teams[i] as Side, map: pool[i] as string },
        ),
      })),
  );

  type Mutation = 'swap types' | 'duplicate a map' | 'team on the decider' | 'drop a team' | 'wrong length';

  /** Breaks a legal veto one way; returns the broken steps and what the refusal should mention. */
  function mutate(
    steps: readonly VetoStep[],
    mutation: Mutation,
    a: number,
    b: number,
    side: Side,
    boFormat: BoFormat,
  ) {
    const copy = steps.map((step) => ({ ...step }));
    const last = copy.length - 1;
    switch (mutation) {
      case 'swap types': {
        // Two steps of different types trade types; the decider always differs from the others.
        const i = a % last;
        const candidates = copy.map((_, j) => j).filter((j) => copy[j]?.type !== copy[i]?.type);
        const j = candidates[b % candidates.length] as number;
        const [ti, tj] = [copy[i]?.type as StepType, copy[j]?.type as StepType];
        (copy[i] as VetoStep).type = tj;
        (copy[j] as VetoStep).type = ti;
        return { steps: copy, message: /must be/ };
      }
      case 'duplicate a map': {
        const i = a % copy.length;
        const j = (i + 1 + (b % last)) % copy.length;
        (copy[j] as VetoStep).map = (copy[i] as VetoStep).map;
        return { steps: copy, message: /is already used by an earlier step/ };
      }
      case 'team on the decider':
        (copy[last] as VetoStep).team = side;
        return { steps: copy, message: /the decider has no team/ };
      case 'drop a team': {
        const step = copy[a % last] as VetoStep;
        delete step.team;
        return { steps: copy, message: new RegExp(`a ${step.type} needs team A or B`) };
      }
      case 'wrong length': {
        const variants = [
          copy.slice(0, -1), // the decider left out
          [...copy, { type: 'ban' as const, team: side, map: 'de_zzextra' }], // a step after the decider
          copy.slice(0, POOL_SIZE.min[boFormat] - 1), // fewer steps than any pool
          [
            ...copy,
            ...Array.from({ length: POOL_SIZE.max + 1 - copy.length }, (_, k) => ({
              type: 'ban' as const,
              team: side,
              map: `de_zz${k}`,
            })),
          ],
        ];
        return { steps: variants[a % variants.length] as VetoStep[], message: /steps|must be/ };
      }
    }
  }

  it('refuses every broken veto, with a message', () => {
    fc.assert(
      fc.property(
        legalVeto,
        fc.constantFrom<Mutation>(
          'swap types',
          'duplicate a map',
          'team on the decider',
          'drop a team',
          'wrong length',
        ),
        fc.nat(),
        fc.nat(),
        fc.constantFrom<Side>('A', 'B'),
        ({ boFormat, steps }, mutation, a, b, side) => {
          expect(explainSteps(boFormat, steps)).toBeNull();
          const broken = mutate(steps, mutation, a, b, side, boFormat);
          const problem = explainSteps(boFormat, broken.steps);
          expect(problem, `${mutation}: ${JSON.stringify(broken.steps)}`).toEqual(expect.any(String));
          expect(problem).toMatch(broken.message);
        },
      ),
      { numRuns: 500 },
    );
  });
});
