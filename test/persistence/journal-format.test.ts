import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRecords, encodeRecord } from '../../src/persistence/journal-format.ts';

const payloads = fc.array(fc.uint8Array({ maxLength: 300 }).map(Buffer.from), { maxLength: 8 });
/** Payloads as the store writes them: JSON objects. */
const jsonPayloads = fc.array(
  fc.dictionary(fc.string(), fc.jsonValue()).map((value) => Buffer.from(JSON.stringify(value))),
  { maxLength: 8 },
);

describe('journal records', () => {
  it('a journal cut anywhere reads back as exactly the records that were whole before the cut', () => {
    fc.assert(
      fc.property(payloads, fc.nat(), (records, cutAt) => {
        const frames = records.map(encodeRecord);
        const whole = Buffer.concat(frames);
        const cut = cutAt % (whole.length + 1);
        const decoded = decodeRecords(whole.subarray(0, cut));
        let end = 0;
        const expected: Buffer[] = [];
        for (const [index, frame] of frames.entries()) {
          if (end + frame.length > cut) break;
          end += frame.length;
          expected.push(records[index] as Buffer);
        }
        expect(decoded.records).toEqual(expected);
        expect(decoded.validBytes).toBe(end);
        expect(decoded.droppedBytes).toBe(cut - end);
      }),
    );
  });

  it('a damaged byte costs the record that holds it: every record before and after it is read', () => {
    fc.assert(
      fc.property(
        jsonPayloads.filter((records) => records.length > 0),
        fc.nat(),
        (records, at) => {
          const frames = records.map(encodeRecord);
          const whole = Buffer.concat(frames);
          const position = at % whole.length;
          const damaged = Buffer.from(whole);
          damaged[position] = (damaged[position] as number) ^ 0xff;
          let start = 0;
          let index = 0;
          while (start + (frames[index] as Buffer).length <= position)
            start += (frames[index++] as Buffer).length;
          const decoded = decodeRecords(damaged);
          expect(decoded.records).toEqual(records.filter((_, kept) => kept !== index));
          expect(decoded.damaged).toEqual([{ at: start, bytes: (frames[index] as Buffer).length }]);
          expect(decoded.validBytes).toBe(index === records.length - 1 ? start : whole.length);
        },
      ),
    );
  });
});
