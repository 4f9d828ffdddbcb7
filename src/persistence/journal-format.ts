/**
 * The frame of one journal record: `[length u32 LE][crc32 u32 LE][payload]`. A record cut short by a
 * crash (a torn write) or damaged on disk fails its length or its checksum; reading stops at the
 * first such record, and everything from there on is dropped.
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

export interface DecodedJournal {
  records: Buffer[];
  /** Bytes up to the end of the last whole record: where the next record goes. */
  validBytes: number;
  /** Bytes after the last whole record (a torn or damaged tail), 0 when the file ends cleanly. */
  droppedBytes: number;
}

export function decodeRecords(data: Buffer): DecodedJournal {
  const records: Buffer[] = [];
  let offset = 0;
  while (offset + HEADER_BYTES <= data.length) {
    const length = data.readUInt32LE(offset);
    const end = offset + HEADER_BYTES + length;
    if (length > MAX_RECORD_BYTES || end > data.length) break;
    const payload = data.subarray(offset + HEADER_BYTES, end);
    if (crc32(payload) !== data.readUInt32LE(offset + 4)) break;
    records.push(payload);
    offset = end;
  }
  return { records, validBytes: offset, droppedBytes: data.length - offset };
}
