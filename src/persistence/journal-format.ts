/**
 * The frame of one journal record: `[length u32 LE][crc32 u32 LE][payload]`. A record cut short by a
 * crash (a torn write) or damaged on disk fails its length or its checksum. Such a record costs
 * itself only: reading goes on at the next place where a whole record starts, so the valid records
 * after a damaged one are kept (docs/persistence.md, "Damage").
 */
import { crc32 } from 'node:zlib';

export const HEADER_BYTES = 8;
/** Far above any saved state; a length beyond it can only be garbage. */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;

export function encodeRecord(payload: Buffer): Buffer {
  const frame = Buffer.allocUnsafe(HEADER_BYTES + payload.length);
  frame.writeUInt32LE(payload.length, 0);
  frame.writeUInt32LE(crc32(payload), 4);
  payload.copy(frame, HEADER_BYTES);
  return frame;
}

/** Bytes that are not a whole record: `at` their offset in the file, `bytes` how many. */
export interface DamagedRange {
  at: number;
  bytes: number;
}

export interface DecodedJournal {
  records: Buffer[];
  /** Bytes up to the end of the last whole record: where the next record goes. */
  validBytes: number;
  /** Bytes that are not part of a whole record (damage, a torn tail), 0 for a clean file. */
  droppedBytes: number;
  /** Where those bytes are: a damaged record in the middle, or a torn or damaged tail. */
  damaged: DamagedRange[];
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** The whole record at `offset`, or null. */
function frameAt(data: Buffer, offset: number): Buffer | null {
  if (offset + HEADER_BYTES > data.length) return null;
  const length = data.readUInt32LE(offset);
  const end = offset + HEADER_BYTES + length;
  if (length > MAX_RECORD_BYTES || end > data.length) return null;
  const payload = data.subarray(offset + HEADER_BYTES, end);
  return crc32(payload) === data.readUInt32LE(offset + 4) ? payload : null;
}

/**
 * Where reading goes on after damage at `from`: the first offset where a whole record starts whose
 * payload is a JSON object (the store writes nothing else). Inside a record's JSON text no record can
 * seem to start: a length made of text bytes (0x20 and over) is at least 0x20202020, far beyond
 * MAX_RECORD_BYTES; a false start across a boundary must also match a 32-bit checksum.
 */
function nextFrame(data: Buffer, from: number): number {
  for (let offset = from; offset + HEADER_BYTES + 2 <= data.length; offset++) {
    if (data[offset + HEADER_BYTES] !== OPEN_BRACE) continue;
    const length = data.readUInt32LE(offset);
    if (length < 2 || length > MAX_RECORD_BYTES || offset + HEADER_BYTES + length > data.length) continue;
    if (data[offset + HEADER_BYTES + length - 1] !== CLOSE_BRACE) continue;
    if (frameAt(data, offset)) return offset;
  }
  return data.length;
}

export function decodeRecords(data: Buffer): DecodedJournal {
  const records: Buffer[] = [];
  const damaged: DamagedRange[] = [];
  let offset = 0;
  let validBytes = 0;
  while (offset < data.length) {
    const payload = frameAt(data, offset);
    if (payload) {
      records.push(payload);
      offset += HEADER_BYTES + payload.length;
      validBytes = offset;
      continue;
    }
    const resume = nextFrame(data, offset + 1);
    damaged.push({ at: offset, bytes: resume - offset });
    offset = resume;
  }
  const droppedBytes = damaged.reduce((sum, range) => sum + range.bytes, 0);
  return { records, validBytes, droppedBytes, damaged };
}
