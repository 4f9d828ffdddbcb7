import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STATE_FILE } from '../../src/persistence/data-dir.ts';
import type { SavedState } from '../../src/persistence/saved-state.ts';
import { build, get, tempDir } from '../helpers/build.ts';
import { readSavedState } from '../helpers/saved-state.ts';

/** A data directory's state.json as the version at 7d1d0d1 wrote it, every part set (test/fixtures/SOURCES.md). */
const EARLIER = new URL('../fixtures/state_7d1d0d1__hud-automation__every-part.json', import.meta.url);

async function dataDirWith(doc: unknown): Promise<string> {
  const dataDir = await tempDir();
  await writeFile(join(dataDir, STATE_FILE), JSON.stringify(doc), { mode: 0o600 });
  return dataDir;
}

const withoutStamp = ({ savedAt: _savedAt, revision: _revision, ...rest }: SavedState) => rest;

/** What was added to the document since 7d1d0d1 is written back with its default: no clean feed held, no history. */
const withAdditions = (doc: SavedState): SavedState => ({
  ...doc,
  production: { ...doc.production, cleanFeed: null },
  history: { undo: [], redo: [] },
});

describe('a saved state written by an earlier version', () => {
  it('starts with every part, and is written back the same', async () => {
    const earlier = JSON.parse(await readFile(EARLIER, 'utf8')) as SavedState;
    const dataDir = await dataDirWith(earlier);
    const server = await build({ dataDir, subscriptionActive: true });

    const { state } = (await get(server, '/api/state')).body;
    expect(state).toMatchObject({ scoreboardVisible: true, vetoVisible: false });
    expect(state).not.toHaveProperty('statsVisible');
    expect(state.senScene).toBe('talents');
    expect(state.roster).toEqual(earlier.host.roster);
    const match = (await get(server, '/api/match')).body.match;
    expect(match.eventName).toBe('IEM Cologne 2026');
    expect(match.maps[0]).toMatchObject({ map: 'de_inferno', scoreA: 9, scoreB: 4 });
    expect((await get(server, '/api/veto')).body.veto.steps).toHaveLength(1);
    expect((await get(server, '/api/presets')).body.presets).toEqual(earlier.host.presets);
    expect(server.service.hud.snapshot('host').context.colorPresetId).toBe('p2');
    const observer = server.service.hud.snapshot('observer').context;
    expect(observer.settings).toEqual(earlier.observer?.settings);
    expect(observer.netcon).toEqual(earlier.observer?.netcon);
    expect(observer.strategy.pinned).toBe('lock');
    expect(server.service.hud.snapshot('host').context.mapFigures).toEqual(earlier.host.mapFigures);
    await server.close();

    const written = (await readSavedState(dataDir)) as SavedState;
    expect(withoutStamp(written)).toEqual(withoutStamp(withAdditions(earlier)));
  });

  it("a file from before the observer actor: production.smartObserver becomes the observer's settings", async () => {
    const earlier = JSON.parse(await readFile(EARLIER, 'utf8')) as SavedState;
    const { observer, ...rest } = earlier;
    const older = { ...rest, production: { ...earlier.production, smartObserver: observer?.settings } };
    const dataDir = await dataDirWith(older);
    const server = await build({ dataDir, subscriptionActive: true });
    expect(server.service.hud.snapshot('observer').context.settings).toEqual(observer?.settings);
    await server.close();

    const written = (await readSavedState(dataDir)) as SavedState;
    expect(written.production).toEqual(withAdditions(earlier).production);
    expect(written.observer?.settings).toEqual(observer?.settings);
  });
});
