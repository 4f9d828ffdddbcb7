/**
 * How `serve` tells dist/cli.js (src/launcher.ts) that the service has started, so that it keeps the
 * code compiled by then as V8's code cache for the next start. The launcher and the bundle are two
 * separate files, so the hook is a global under a registered symbol; run from the sources (tsx,
 * tests) nothing sets it and the call does nothing.
 */
export const COMPILE_CACHE_HOOK = Symbol.for('hud-automation.compile-cache.started');

export function startedForCompileCache(): void {
  const hook = (globalThis as Record<symbol, unknown>)[COMPILE_CACHE_HOOK];
  if (typeof hook === 'function') hook();
}
