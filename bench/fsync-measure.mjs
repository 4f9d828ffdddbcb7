// What a write and an fsync cost on this disk: `node bench/fsync-measure.mjs [dir] [record bytes]`.
// 400 appends of one record to a file opened for appending, alone, then each followed by fdatasync,
// then by fsync. The figures chose the flush policy of docs/persistence.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(process.argv[2] ?? tmpdir(), 'fsync-'));
const handle = await open(join(dir, 'journal'), 'a');
const record = Buffer.alloc(Number(process.argv[3] ?? 1100), 97);
for (const mode of ['write', 'write+fdatasync', 'write+fsync']) {
  const times = [];
  for (let i = 0; i < 400; i++) {
    const start = process.hrtime.bigint();
    await handle.write(record);
    if (mode === 'write+fdatasync') await handle.datasync();
    if (mode === 'write+fsync') await handle.sync();
    times.push(Number(process.hrtime.bigint() - start) / 1e3);
  }
  times.sort((a, b) => a - b);
  const at = (p) => times[Math.floor(p * (times.length - 1))].toFixed(0);
  console.log(`${mode}: p50 ${at(0.5)} µs, p90 ${at(0.9)} µs, p99 ${at(0.99)} µs, max ${at(1)} µs`);
}
await handle.close();
rmSync(dir, { recursive: true, force: true });
