/**
 * What a page is sent of the timeline (src/app-server/machines-view/thinning.ts): for any run of
 * entries, nothing is lost from the count (each sent entry plus its `unsent` adds up to every entry
 * recorded), a change of state and every entry of the actor in focus go out, the order of each actor
 * is kept, and game-frame entries of the others go out at most a few a second, the latest one last.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Recorded } from '../../src/app-server/machines-view/machine-watch.ts';
import { StreamThinner } from '../../src/app-server/machines-view/thinning.ts';
import type { ActorKey } from '../../src/core/hud-system.ts';

const PER_SECOND = 4;
const INTERVAL = 1000 / PER_SECOND;

type Fake = Pick<Recorded, 'seq' | 'at' | 'actor' | 'moved' | 'byFrame'>;
const record = (fake: Fake) => fake as unknown as Recorded;

/** Offers the records in order (their `at` is the clock) and drains; returns what was sent. */
function thin(focus: ActorKey | null, records: Fake[]) {
  const sent: Array<{ record: Fake; unsent: number }> = [];
  const thinner = new StreamThinner(focus, PER_SECOND, (one, unsent) => sent.push({ record: one, unsent }));
  for (const one of records) thinner.offer(record(one));
  thinner.drain();
  return sent;
}

const actors: ActorKey[] = ['game', 'observer', 'vetoSession'];
const runs = fc
  .array(
    fc.record({
      gap: fc.integer({ min: 0, max: 400 }),
      actor: fc.constantFrom(...actors),
      moved: fc.boolean(),
      byFrame: fc.boolean(),
    }),
    { maxLength: 120 },
  )
  .map((steps) => {
    let at = 1_000_000;
    return steps.map((step, index): Fake => {
      at += step.gap;
      return { seq: index + 1, at, actor: step.actor, moved: step.moved, byFrame: step.byFrame };
    });
  });

describe('StreamThinner', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('accounts for every entry, sends every change of state and all of the actor in focus, in order', () => {
    fc.assert(
      fc.property(runs, fc.constantFrom<ActorKey | null>(null, ...actors), (records, focus) => {
        const sent = thin(focus, records);
        for (const actor of actors) {
          const recorded = records.filter((one) => one.actor === actor);
          const mine = sent.filter((one) => one.record.actor === actor);
          // Nothing hidden: what was not sent is counted on the next one sent.
          expect(mine.reduce((sum, one) => sum + 1 + one.unsent, 0)).toBe(recorded.length);
          // In the actor's order, and the latest one always arrives.
          const seqs = mine.map((one) => one.record.seq);
          expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
          expect(seqs.at(-1)).toBe(recorded.at(-1)?.seq);
          for (const one of recorded) {
            if (one.moved || !one.byFrame || one.actor === focus) expect(seqs).toContain(one.seq);
          }
          if (actor === focus) expect(mine.every((one) => one.unsent === 0)).toBe(true);
          // A game-frame entry that changed no state, followed by another such: sent only when its
          // turn had come (at most PER_SECOND a second); otherwise counted on a later one.
          const quiet = (one: Fake | undefined) => one?.byFrame === true && !one.moved && one.actor !== focus;
          for (const [index, one] of mine.entries()) {
            const next = recorded[recorded.indexOf(one.record) + 1];
            const before = mine.slice(0, index).findLast((sent) => sent.record.byFrame);
            if (quiet(one.record) && quiet(next) && before)
              expect(one.record.at - before.record.at).toBeGreaterThanOrEqual(INTERVAL);
          }
        }
      }),
    );
  });

  it('fifty frames a second to an actor not shown: four a second go out, each counting the others', () => {
    const frames: Fake[] = Array.from({ length: 50 }, (_, index) => ({
      seq: index + 1,
      at: 1_000_000 + index * 20,
      actor: 'observer',
      moved: false,
      byFrame: true,
    }));
    const sent = thin('vetoSession', frames);
    expect(sent.map((one) => one.record.seq)).toEqual([1, 14, 27, 40, 50]);
    expect(sent.map((one) => one.unsent)).toEqual([0, 12, 12, 12, 9]);
    // The same frames to the page that shows the observer: every one.
    expect(thin('observer', frames)).toHaveLength(50);
  });

  it('live, the latest held entry goes out when its turn comes, with the count of the ones it replaced', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const sent: Array<{ seq: number; unsent: number }> = [];
    const thinner = new StreamThinner(null, PER_SECOND, (one, unsent) => sent.push({ seq: one.seq, unsent }));
    thinner.live();
    const offer = (seq: number) =>
      thinner.offer(record({ seq, at: Date.now(), actor: 'game', moved: false, byFrame: true }));
    offer(1);
    vi.advanceTimersByTime(20);
    offer(2);
    vi.advanceTimersByTime(20);
    offer(3);
    expect(sent).toEqual([{ seq: 1, unsent: 0 }]);
    vi.advanceTimersByTime(INTERVAL);
    expect(sent).toEqual([
      { seq: 1, unsent: 0 },
      { seq: 3, unsent: 1 },
    ]);
    offer(4);
    thinner.close();
    vi.advanceTimersByTime(INTERVAL * 2);
    expect(sent).toHaveLength(2);
  });
});
