/** Team logos in tests: the service without its logo fetch, and an image server of its own. */
import { matchMachine } from '../../machines/match.machine.ts';
import type { supervisorMachine } from '../../machines/supervisor.machine.ts';

/**
 * The service as it runs, but the match's logo fetch never reports (each remote logo stays
 * `fetching`): for tests whose logos live on the real CDNs (the import fixtures) and that count
 * revisions, which a fetch settling in the background would add to.
 */
export const withoutLogoFetch = (live: typeof supervisorMachine) =>
  live.provide({ actors: { match: matchMachine } });
