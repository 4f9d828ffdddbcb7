/**
 * Adding a panel is one entry in machines/panels.ts (and its drawing on the overlay page): a copy of
 * the project with one more entry type-checks, and its server runs, saves and restores the new
 * panel through every derived part: the actor under the supervisor, the commands, the HUD state,
 * the overlay's report and the saved state.
 *
 * Adding a saved actor is four files (docs/architecture.md, "The actors: one roster"): the same copy
 * also gets one (clock): its machine, its systemId, its roster entry (input and entry) and its saved
 * part's descriptor; it type-checks, and its server saves it and starts it again from what it saved.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PANEL_LIST_END = '] as const satisfies readonly PanelDeclaration[];';

/** The new saved actor's machine: the one new file. */
const CLOCK_MACHINE = `import { assign, setup } from 'xstate';

export interface ClockInput {
  ticks: number;
}

export const clockMachine = setup({
  types: {} as { context: ClockInput; input: ClockInput; events: { type: 'clock.tick' } },
  actions: { tick: assign({ ticks: ({ context }) => context.ticks + 1 }) },
}).createMachine({
  id: 'clock',
  context: ({ input }) => ({ ticks: input.ticks }),
  on: { 'clock.tick': { actions: 'tick' } },
});
`;
/** The edits of the three files it touches, each an anchor and what goes after it. */
const CLOCK_EDITS: ReadonlyArray<{ file: string; after: string; insert: string }> = [
  { file: 'machines/system-ids.ts', after: "  game: 'game',\n", insert: "  clock: 'clock',\n" },
  {
    file: 'machines/supervisor.machine.ts',
    after: "import { vetoSessionMachine } from './veto-session.machine.ts';\n",
    insert: "import { type ClockInput, clockMachine } from './clock.machine.ts';\n",
  },
  {
    file: 'machines/supervisor.machine.ts',
    after: '  observer: ObserverInput;\n',
    insert: '  clock: ClockInput;\n',
  },
  {
    file: 'machines/supervisor.machine.ts',
    after: 'export const ACTORS = {\n',
    insert: "  clock: actor(clockMachine, 'clock', (context) => context.clock, { hudState: false }),\n",
  },
  {
    file: 'src/persistence/saved-parts.ts',
    after: 'export const SAVED_PARTS = {\n',
    insert: `  clock: savedPart('clock', {
    schema: Type.Optional(Type.Object({ ticks: Type.Integer({ minimum: 0 }) })),
    sources: ['clock'],
    from: ({ clock }) => [clock.context] as const,
    part: ([context]) => context,
    restore: (part) => part ?? { ticks: 0 },
  }),
`,
  },
];
const PROBE = `  {
    id: 'probe',
    systemId: 'panel.probe',
    command: 'probe',
    stateKey: 'probeVisible',
    label: 'the probe panel',
    name: 'Probe',
    hook: 'probe',
  },
`;

describe('the actor roster', () => {
  let copy: string;

  beforeAll(async () => {
    copy = await mkdtemp(join(tmpdir(), 'hud-roster-copy-'));
    const parts = ['machines', 'src', 'package.json', 'tsconfig.json', 'test/core/roster-probe.ts'];
    for (const part of [...parts, 'test/core/roster-saved-probe.ts']) {
      await cp(join(ROOT, part), join(copy, part), { recursive: true });
    }
    await symlink(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
    const panels = join(copy, 'machines/panels.ts');
    const text = await readFile(panels, 'utf8');
    expect(text).toContain(PANEL_LIST_END);
    // The one edit: one more panel at the end of the list.
    await writeFile(panels, text.replace(PANEL_LIST_END, `${PROBE}${PANEL_LIST_END}`));
    // The saved actor: one new file and one entry in each of three.
    await writeFile(join(copy, 'machines/clock.machine.ts'), CLOCK_MACHINE);
    for (const { file, after, insert } of CLOCK_EDITS) {
      const path = join(copy, file);
      const before = await readFile(path, 'utf8');
      expect(before, file).toContain(after);
      await writeFile(path, before.replace(after, `${after}${insert}`));
    }
  });

  afterAll(async () => {
    if (copy) await rm(copy, { recursive: true, force: true });
  });

  it('takes a new panel with one entry: it type-checks, server and pages alike', async () => {
    const tsc = join(ROOT, 'node_modules/.bin/tsc');
    await run(tsc, ['--noEmit', '-p', copy]);
    await run(tsc, ['--noEmit', '-p', join(copy, 'src/pages')]);
  });

  it('runs the new panel end to end: actor, commands, HUD state, overlay report, saved state', async () => {
    const tsx = join(ROOT, 'node_modules/.bin/tsx');
    const { stdout } = await run(tsx, [join(copy, 'test/core/roster-probe.ts')], { cwd: copy });
    expect(JSON.parse(stdout)).toEqual({
      systemId: 'panel.probe',
      actor: true,
      actions: ['toggle_probe', 'show_probe', 'hide_probe'],
      shown: { revision: 1, probeVisible: true },
      reported: true,
      afterRestart: true,
    });
  });

  it('runs a new saved actor from four files: it is saved and starts again from what was saved', async () => {
    const tsx = join(ROOT, 'node_modules/.bin/tsx');
    const { stdout } = await run(tsx, [join(copy, 'test/core/roster-saved-probe.ts')], { cwd: copy });
    expect(JSON.parse(stdout)).toEqual({ started: 0, written: { ticks: 3 }, restored: 3 });
  });
});
