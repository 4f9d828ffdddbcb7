/**
 * What the live channel sends (src/game/live-diff.ts): the parts of the live view that changed, found
 * field by field. Every field of every part is changed on its own, and random changes are compared
 * with a generic deep comparison: a field the typed comparison missed would go unsent.
 */
import { dequal } from 'dequal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFrame } from '../../src/game/game-frame.ts';
import { diffLive } from '../../src/game/live-diff.ts';
import type { GameLive, GameLivePatch } from '../../src/protocol/game.ts';
import { FAZE_NAVI, fixture } from '../helpers/gsi.ts';

/** The live view of the GOTV capture, with an inferno added (its flames) and ADR known for one player. */
async function liveView(): Promise<GameLive> {
  const frame = parseFrame(await fixture(FAZE_NAVI), 'csgo');
  const players = Object.fromEntries(
    frame.players.map((p, i) => [p.steamid, { ...p, adr: i === 0 ? 71.3 : null }]),
  );
  return {
    map: frame.map,
    round: frame.round,
    bomb: frame.bomb && {
      state: frame.bomb.state,
      countdown: 12.5,
      playerSlot: null,
      position: frame.bomb.position,
      explodesIn: 12.5,
      defuseIn: null,
      defuseSeconds: null,
    },
    observed: { steamid: frame.observedSteamid as string, slot: 7 },
    players,
    killfeed: [],
    grenades: [
      ...frame.grenades,
      {
        id: '401',
        type: 'inferno',
        owner: '76561198034202275',
        position: null,
        flames: [
          [1, 2, 3],
          [4, 5, 6],
        ],
        lifetime: 2.5,
        effect: null,
      },
    ],
  };
}

/** The diff as a generic deep comparison finds it: what the typed one must agree with. */
function reference(previous: GameLive, next: GameLive): GameLivePatch | null {
  const patch: GameLivePatch = {};
  for (const part of ['map', 'round', 'bomb', 'observed', 'grenades'] as const) {
    if (!dequal(previous[part], next[part])) (patch as Record<string, unknown>)[part] = next[part];
  }
  const players: Record<string, unknown> = {};
  for (const [steamid, player] of Object.entries(next.players))
    if (!dequal(previous.players[steamid], player)) players[steamid] = player;
  for (const steamid of Object.keys(previous.players))
    if (!(steamid in next.players)) players[steamid] = null;
  if (Object.keys(players).length > 0) patch.players = players as GameLivePatch['players'];
  return Object.keys(patch).length > 0 ? patch : null;
}

type Path = Array<string | number>;

/** Every value of the view that is not an object or an array, by its path. */
function leaves(value: unknown, path: Path = []): Path[] {
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, inner]) =>
      leaves(inner, [...path, Array.isArray(value) ? Number(key) : key]),
    );
  return [path];
}

/** A copy of the view with the leaf at `path` changed to another value of its kind. */
function changed(live: GameLive, path: Path): GameLive {
  const copy = structuredClone(live);
  let at: any = copy;
  for (const key of path.slice(0, -1)) at = at[key];
  const last = path.at(-1) as string | number;
  const value = at[last];
  at[last] =
    typeof value === 'number'
      ? value + 1
      : typeof value === 'string'
        ? `${value}x`
        : typeof value === 'boolean'
          ? !value
          : 1;
  return copy;
}

describe('what the live channel sends', () => {
  it('nothing when nothing changed; a changed part whole; a player who left as null', async () => {
    const live = await liveView();
    expect(diffLive(live, structuredClone(live))).toBeNull();
    const hurt = structuredClone(live);
    const [first, second] = Object.keys(hurt.players) as [string, string];
    (hurt.players[first] as { health: number }).health = 1;
    delete hurt.players[second];
    expect(diffLive(live, hurt)).toEqual({ players: { [first]: hurt.players[first], [second]: null } });
  });

  it('every field of every part, changed alone, sends its part (a player: only that player)', async () => {
    const live = await liveView();
    const paths = leaves(live);
    expect(paths.length).toBeGreaterThan(200);
    for (const path of paths) {
      const next = changed(live, path);
      const patch = diffLive(live, next);
      const [part, steamid] = path as [keyof GameLive, string];
      if (part === 'players')
        expect(patch, path.join('.')).toEqual({ players: { [steamid]: next.players[steamid] } });
      else expect(patch, path.join('.')).toEqual({ [part]: next[part] });
    }
  });

  it('parts that appear, vanish or change length are sent', async () => {
    const live = await liveView();
    const steamid = Object.keys(live.players)[0] as string;
    const cases: Array<(view: GameLive) => void> = [
      (view) => (view.bomb = null),
      (view) => (view.map = null),
      (view) => (view.observed = null),
      (view) => view.grenades.pop(),
      (view) => view.grenades[1]?.flames.pop(),
      (view) => view.players[steamid]?.weapons.pop(),
      (view) => {
        const player = view.players[steamid];
        if (player) player.position = null;
      },
    ];
    for (const change of cases) {
      const next = structuredClone(live);
      change(next);
      expect(diffLive(live, next)).toEqual(reference(live, next));
      expect(diffLive(next, live)).toEqual(reference(next, live));
    }
  });

  it('agrees with a generic deep comparison on random changes', async () => {
    const live = await liveView();
    const paths = leaves(live);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: paths.length - 1 }), { maxLength: 12 }),
        (picked) => {
          let next = live;
          for (const index of picked) next = changed(next, paths[index] as Path);
          expect(diffLive(live, next)).toEqual(reference(live, next));
        },
      ),
    );
  });
});
