/**
 * The mirv_pgl reader (src/game/hlae-pgl.ts) on any bytes: it answers with commands or refuses with
 * a PglError, never anything else; and a refused message teaches the connection no event.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PglEvents } from '../../src/game/hlae-pgl.ts';
import { PglError, readPglMessage } from '../../src/game/hlae-pgl.ts';
import { Bytes, PglWriter, PLAYER_DEATH, player } from '../helpers/hlae-stand-in.ts';

const death = () =>
  new PglWriter()
    .event(new Bytes(), PLAYER_DEATH, {
      userid: player(2, '76561198070435807'),
      attacker: player(3, '76561198310998584'),
      assister: player(-1, null),
      weapon: 'ak47',
      headshot: true,
      penetrated: 1,
    })
    .done();

describe('the mirv_pgl reader', () => {
  it('reads a player_death with its descriptor, enriched players and values', () => {
    const events: PglEvents = new Map();
    const [command] = readPglMessage(death(), events);
    expect(command).toMatchObject({
      type: 'gameEvent',
      name: 'player_death',
      keys: {
        userid: { userid: 2, xuid: '76561198070435807' },
        attacker: { userid: 3, xuid: '76561198310998584' },
        assister: { userid: -1, xuid: '0' },
        weapon: 'ak47',
        headshot: true,
        penetrated: 1,
      },
    });
    expect(events.get(PLAYER_DEATH.id)?.name).toBe('player_death');
  });

  it('any bytes: commands or a PglError, and a refused message teaches nothing', () => {
    const valid = death();
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          // A valid message cut or with bytes changed: the interesting near misses.
          fc.nat({ max: valid.length }).map((n) => valid.subarray(0, n)),
          fc.tuple(fc.nat({ max: valid.length - 1 }), fc.integer({ min: 0, max: 255 })).map(([at, byte]) => {
            const copy = Buffer.from(valid);
            copy[at] = byte;
            return copy;
          }),
        ),
        (bytes) => {
          const events: PglEvents = new Map();
          try {
            readPglMessage(bytes, events);
          } catch (error) {
            expect(error).toBeInstanceOf(PglError);
            expect(events.size).toBe(0);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
