/**
 * The Companion versions this module is tested on: test/real-companion.test.ts runs it in each, built
 * from source, and fails when the Companion it ran is not listed here. The module's API
 * (@companion-module/base 1.12) loads in every Companion 4 from 4.0 (docs/companion.md).
 */
export const TESTED_COMPANION_VERSIONS = ['4.2.6'] as const;
