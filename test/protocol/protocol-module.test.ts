import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { HudStateSchema, PANELS, ServerMessage } from '../../src/protocol/index.ts';

const ENTRY = fileURLToPath(new URL('../../src/protocol/index.ts', import.meta.url));

describe('the protocol module', () => {
  it('bundles for a browser: nothing under it imports Node', async () => {
    const result = await build({
      entryPoints: [ENTRY],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
      metafile: true,
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(
      inputs.filter((path) => path.startsWith('node:') || path.includes('/node_modules/fastify')),
    ).toEqual([]);
    // The wire vocabulary comes from machines/vocabulary.ts: the pages do not bundle the machines.
    expect(
      inputs.filter((path) => path.includes('/node_modules/xstate/') || path.endsWith('.machine.ts')),
    ).toEqual([]);
  });

  it('a Node import below it fails that bundle (the check above can fail)', async () => {
    await expect(
      build({
        stdin: {
          contents: "import { readFileSync } from 'node:fs'; console.log(readFileSync);",
          resolveDir: '.',
        },
        bundle: true,
        platform: 'browser',
        write: false,
        logLevel: 'silent',
      }),
    ).rejects.toThrow(/node:fs/);
  });

  it("carries the server's own schemas", () => {
    expect(HudStateSchema.properties.revision.type).toBe('integer');
    expect(PANELS.map((panel) => panel.stateKey)).toEqual([
      'scoreboardVisible',
      'vetoVisible',
      'statsVisible',
      'radarVisible',
      'hudWindowOpen',
    ]);
    expect(ServerMessage.anyOf.length).toBeGreaterThan(5);
  });
});
