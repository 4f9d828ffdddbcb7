/**
 * Adding a panel is one entry in machines/panels.ts (and its drawing on the overlay page): a copy of
 * the project with one more entry type-checks, and its server runs, saves and restores the new
 * panel through every derived part: the actor under the supervisor, the commands, the HUD state,
 * the overlay's report and the saved state.
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
    for (const part of ['machines', 'src', 'package.json', 'tsconfig.json', 'test/core/roster-probe.ts']) {
      await cp(join(ROOT, part), join(copy, part), { recursive: true });
    }
    await symlink(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
    const panels = join(copy, 'machines/panels.ts');
    const text = await readFile(panels, 'utf8');
    expect(text).toContain(PANEL_LIST_END);
    // The one edit: one more panel at the end of the list.
    await writeFile(panels, text.replace(PANEL_LIST_END, `${PROBE}${PANEL_LIST_END}`));
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
});
