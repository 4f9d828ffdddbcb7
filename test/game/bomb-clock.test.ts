/**
 * The bomb's two clocks (src/game/bomb-clock.ts) over the captured round: planted at 40 s, a defuse
 * without a kit started ten seconds later, the bomb's time carried through the defuse on the game's
 * clock, frozen once defused; a kit halves the defuse, an explosion ends at 0.
 */
import { describe, expect, it } from 'vitest';
import { BombClock } from '../../src/game/bomb-clock.ts';
import { parseFrame } from '../../src/game/game-frame.ts';
import type { Frame } from '../helpers/gsi.ts';
import { fixture, ROUND_SEQUENCE } from '../helpers/gsi.ts';

async function roundFrames(): Promise<Frame[]> {
  return (await fixture(ROUND_SEQUENCE)) as Frame[];
}

function run(frames: Frame[]) {
  const clock = new BombClock();
  return frames.map((raw) => {
    const frame = parseFrame(raw, 'csgo');
    const phaseClock = frame.round?.phase === 'bomb' ? frame.round.clock : null;
    return { state: frame.bomb?.state ?? null, ...clock.observe(frame, raw.provider.timestamp, phaseClock) };
  });
}

describe('the bomb clock', () => {
  it('keeps the bomb’s time through a defuse and freezes it once defused', async () => {
    const seen = run(await roundFrames());
    expect(
      seen.map(({ state, explodesIn, defuseIn, defuseSeconds }) => [
        state,
        explodesIn,
        defuseIn,
        defuseSeconds,
      ]),
    ).toEqual([
      ['carried', null, null, null],
      ['carried', null, null, null],
      ['planting', null, null, null],
      ['planting', null, null, null],
      ['planted', 40, null, null],
      ['planted', 30.3, null, null],
      // The defuse's first frame has the same game time as the last planted one: 30.3 s still.
      ['defusing', 30.3, 10, 10],
      // Ten seconds later on the game's clock: the defuse nearly done, the bomb 20.3 s from exploding.
      ['defusing', 20.3, 0.1, 10],
      ['defused', 20.3, null, null],
      ['defused', 20.3, null, null],
      ['carried', null, null, null],
    ]);
  });

  it('takes 5 s with the defuser’s kit, and ends at 0 when the bomb explodes', async () => {
    const frames = await roundFrames();
    const defusing = structuredClone(frames[6] as Frame);
    const defuser = defusing.bomb.player as string;
    defusing.allplayers[defuser].state.defusekit = true;
    defusing.bomb.countdown = '5.0';
    const exploded = structuredClone(frames[8] as Frame);
    exploded.bomb = { state: 'exploded', position: exploded.bomb.position };
    const seen = run([frames[4] as Frame, defusing, exploded]);
    expect(seen[1]).toMatchObject({ state: 'defusing', explodesIn: 30, defuseIn: 5, defuseSeconds: 5 });
    expect(seen[2]).toMatchObject({ state: 'exploded', explodesIn: 0, defuseIn: null });
  });

  it('does not carry a bomb’s time into the next round', async () => {
    const frames = await roundFrames();
    // A defuse seen without the plant before it (the server started during the defuse): no bomb time.
    const seen = run([frames[4] as Frame, frames[10] as Frame, frames[6] as Frame]);
    expect(seen[2]).toMatchObject({ state: 'defusing', explodesIn: null, defuseIn: 10, defuseSeconds: 10 });
  });
});
