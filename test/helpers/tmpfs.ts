import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

const mounted: string[] = [];

afterEach(() => {
  // Lazy: a server still closing keeps its files; the mount goes away when they are closed.
  for (const dir of mounted.splice(0)) {
    execFileSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Why this machine cannot mount a tmpfs (not root, no mount), or null when it can. */
export function tmpfsSkipReason(): string | null {
  const probe = mkdtempSync(join(tmpdir(), 'hud-tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'pipe' });
    execFileSync('umount', [probe]);
    return null;
  } catch (error) {
    return `cannot mount a tmpfs here (needs root and mount): ${(error as Error).message.split('\n')[0]}`;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/** A small file system of its own, unmounted after the test: a disk that can be filled or made read-only. */
export function mountTmpfs(size: string, options = ''): string {
  const dir = mkdtempSync(join(tmpdir(), 'hud-tmpfs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}${options}`, 'tmpfs', dir], { stdio: 'pipe' });
  mounted.push(dir);
  return dir;
}

export function remount(dir: string, mode: 'ro' | 'rw'): void {
  execFileSync('mount', ['-o', `remount,${mode}`, dir], { stdio: 'pipe' });
}

/** Writes `file` until the file system is full; returns a function that frees the space again. */
export async function fillDisk(file: string): Promise<() => Promise<void>> {
  const handle = await open(file, 'w');
  try {
    for (const size of [64 * 1024, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size, 0x2e);
      for (;;) {
        try {
          await handle.write(chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw error;
        }
      }
    }
  } finally {
    await handle.close();
  }
  return () => rm(file, { force: true });
}
