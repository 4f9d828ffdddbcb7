#!/usr/bin/env node
/**
 * dist/cli.js, what `npm start` and the `hud-automation` command run: it runs the CLI's bundle
 * (dist/server.cjs, scripts/build.ts) with V8's code cache, so that a start deserialises the code
 * the last start compiled instead of compiling the bundle's 3.3 MB (start-up about 300 → 220 ms,
 * docs/performance.md "Start-up"). Node 22 does the same with `module.enableCompileCache()`;
 * Node 20, which this project supports, has no compile cache for any module, so the bundle is
 * CommonJS and run here through `vm.Script`, the API that takes and makes V8's cached data.
 *
 * The cache is `server.cjs.cache` beside the bundle (a build removes both). A start without one,
 * or whose cache does not fit (another build, another Node, other V8 flags, a damaged file), runs
 * from the source and writes a new cache once the service has started: the code its start
 * compiled, which is what the next start needs. The cache is a speed-up only: a cache that cannot be read or written costs one
 * slower start, never the start itself. Only Node's own modules here: this file is not bundled
 * with the rest, and it must load before anything else.
 */
import { isAscii } from 'node:buffer';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { COMPILE_CACHE_HOOK } from './compile-cache-hook.ts';

const bundle = fileURLToPath(new URL('./server.cjs', import.meta.url));
const cacheFile = `${bundle}.cache`;

/**
 * The bundle as a script, from V8's cache when it fits. The cache file: the CRC-32 of the bundle it
 * was made from (4 bytes), then V8's data. V8 checks its version, its flags and the source's length,
 * not the source itself: a bundle of another build of the same length would run the old build's
 * code. The CRC (about 1.5 ms over 3.3 MB) makes that bundle's cache a missing one, as Node 22's
 * compile cache does. A function, so that the file's bytes and the cache's are not kept once read.
 */
function compile(): Script {
  const bytes = readFileSync(bundle);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(bytes));
  const cachedData = readCache(checksum);
  // The build writes the bundle in ASCII (scripts/build.ts), which decodes into a one-byte string
  // 10 ms sooner than as UTF-8; any other file is read as UTF-8.
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  const script = new Script(source, { filename: bundle, ...(cachedData ? { cachedData } : {}) });
  if (cachedData === undefined || script.cachedDataRejected) {
    // Called by `serve` once its servers listen (src/cli.ts): the code compiled by then is the start's.
    (globalThis as Record<symbol, unknown>)[COMPILE_CACHE_HOOK] = () => writeCache(checksum, script);
  }
  return script;
}

function readCache(checksum: Buffer): Buffer | undefined {
  try {
    const file = readFileSync(cacheFile);
    return file.subarray(0, 4).equals(checksum) ? file.subarray(4) : undefined;
  } catch {
    return undefined; // None yet (the first start after a build), or unreadable: compiled from the source.
  }
}

function writeCache(checksum: Buffer, script: Script): void {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    // Written aside then renamed: a start reading it meanwhile sees the old file or the new one,
    // never half of one. No fsync: a cache lost in a crash costs one start's compile.
    writeFileSync(temporary, Buffer.concat([checksum, script.createCachedData()]));
    renameSync(temporary, cacheFile);
  } catch {
    // A read-only installation: every start compiles, as it would without the cache.
  }
}

// The bundle is one function of CommonJS's wrapper's arguments (scripts/build.ts): run, it returns
// that function, called here as Node calls a module's.
const module = { exports: {} };
compile().runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
