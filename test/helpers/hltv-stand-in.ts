/**
 * A service whose HLTV base points at a local stand-in answering the real match pages of
 * test/fixtures (test/import/source-server.ts): imports over the desk, undo and the operator app's
 * import preview use the same two series.
 */
import { afterEach } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { fixtureText, html, type SourceServer, startSourceServer } from '../import/source-server.ts';
import { type BuildOptions, build } from './build.ts';
import { withoutLogoFetch } from './logos.ts';

export interface HltvPage {
  path: string;
  file: string;
  teamA: string;
  teamB: string;
}

/** The bo3 quarter-final: FURIA first on the page, Natus Vincere second. */
export const FURIA_NAVI: HltvPage = {
  path: '/matches/2388127/furia-vs-natus-vincere-starladder-budapest-major-2025',
  file: 'hltv_match_2388127_furia-vs-natus-vincere_bo3_quarterfinal__qa-hltv-parser__teamsbox-and-maps.html',
  teamA: 'FURIA',
  teamB: 'Natus Vincere',
};

/** The bo5 grand final: Vitality vs FaZe. */
export const VITALITY_FAZE: HltvPage = {
  path: '/matches/2388130/vitality-vs-faze-starladder-budapest-major-2025',
  file: 'hltv_match_2388130_vitality-vs-faze_bo5_grand-final__qa-hltv-parser__teamsbox-and-maps.html',
  teamA: 'Vitality',
  teamB: 'FaZe',
};

export const hltvUrl = (page: HltvPage) => `https://www.hltv.org${page.path}`;

const sources: SourceServer[] = [];
afterEach(async () => {
  for (const source of sources.splice(0)) await source.close();
});

/** A running service importing `pages` from a local HLTV stand-in; logos are not fetched (they are on real CDNs). */
export async function serviceWithHltv(
  pages: readonly HltvPage[],
  options: BuildOptions = {},
): Promise<RunningServer> {
  const source = await startSourceServer(
    Object.fromEntries(pages.map((page) => [page.path, html(fixtureText(page.file))])),
  );
  sources.push(source);
  const base = source.url;
  return build({
    machine: withoutLogoFetch,
    ...options,
    overrides: {
      ...options.overrides,
      sources: {
        faceitUrl: base,
        faceitDataApiUrl: `${base}/data/v4`,
        hltvUrl: base,
        faceitKeyHost: new URL(base).host,
      },
    },
  });
}
