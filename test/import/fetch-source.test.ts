// The client is exercised through the importer, as an import uses it: real sockets, real fetch.
import { describe, expect, it } from 'vitest';
import { DEFAULT_IMPORT_SOURCES } from '../../src/import/import-sources.ts';
import { createMatchImporter } from '../../src/import/match-importer.ts';
import {
  currentSourceServer,
  failureOf,
  fixtureJson,
  html,
  importerFor,
  json,
  unusedPort,
} from './source-server.ts';

const SCHEDULED = fixtureJson<{ match_id: string }>(
  'faceit_data-v4-match_SCHEDULED_no-voting__eggosystem__validMatchDetailsMatchCreated.json',
);
const FACEIT_ID = SCHEDULED.match_id;
const HLTV_PATH = '/matches/2388130/vitality-vs-faze-starladder-budapest-major-2025';
const HLTV_URL = `https://www.hltv.org${HLTV_PATH}`;

describe('source failures', () => {
  it.each([
    [
      'a Cloudflare challenge (cf-mitigated header)',
      html('<html><head><title>Just a moment...</title></head><body></body></html>', 403, {
        'cf-mitigated': 'challenge',
      }),
      /HLTV answered the match page request with a Cloudflare bot check \(cf-mitigated: challenge\)/,
    ],
    [
      'a "Just a moment..." page without the header',
      html(
        '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>Checking</body></html>',
        503,
      ),
      /"Just a moment\.\.\." challenge page/,
    ],
    [
      'a "Sorry, you have been blocked" page, even with status 200',
      html(
        '<html><head><title>Attention Required! | Cloudflare</title></head><body><h1>Sorry, you have been blocked</h1></body></html>',
      ),
      /"Sorry, you have been blocked" page/,
    ],
    [
      'a 500',
      html('<html><body>oops</body></html>', 500),
      /HLTV answered 500 Internal Server Error to the match page request/,
    ],
    [
      'a 404',
      html('<html><body>not here</body></html>', 404),
      /HLTV answered 404 Not Found .*does not exist/,
    ],
    ['a 429', html('slow down', 429), /too many requests/],
  ])('answers 502 for %s, saying what happened', async (_, route, message) => {
    const { importMatch } = await importerFor({ [HLTV_PATH]: route });
    const error = await failureOf(importMatch({ url: HLTV_URL }));
    expect(error.code).toBe('upstream_error');
    expect(error.status).toBe(502);
    expect(error.message).toMatch(message);
  });

  it('answers 502 when FACEIT sends something that is not JSON', async () => {
    const { importMatch } = await importerFor({
      [`/data/v4/matches/${FACEIT_ID}`]: html('<html><body>hello</body></html>'),
    });
    const error = await failureOf(importMatch({ platformMatchId: FACEIT_ID }));
    expect(error).toMatchObject({ code: 'upstream_error' });
    expect(error.message).toContain(
      'the FACEIT Data API answered the match request with something that is not JSON (text/html',
    );
  });

  it('answers 502 when the source cannot be reached', async () => {
    const port = await unusedPort();
    const { importMatch } = createMatchImporter({
      sources: { ...DEFAULT_IMPORT_SOURCES, hltvUrl: `http://127.0.0.1:${port}` },
    });
    const error = await failureOf(importMatch({ url: HLTV_URL }));
    expect(error.code).toBe('upstream_error');
    expect(error.message).toBe(
      `could not reach HLTV (127.0.0.1:${port}) for the match page: the connection was refused`,
    );
  });

  it('answers 504 when a source never answers within the budget', async () => {
    const { importMatch } = await importerFor({ [HLTV_PATH]: 'hang' }, { timeoutMs: 300 });
    const error = await failureOf(importMatch({ url: HLTV_URL }));
    expect(error.code).toBe('upstream_timeout');
    expect(error.status).toBe(504);
    expect(error.message).toBe(
      'the import did not finish within 0.3 s: HLTV did not answer the match page request in time',
    );
    expect(currentSourceServer()?.requests).toHaveLength(1);
  });

  it('counts the budget across requests: a hanging history after a quick match still times out', async () => {
    const match = fixtureJson(
      'faceit_data-v4-match_FINISHED_bo3_eu__eggosystem__validMatchDetailsMatchDemoReady.json',
    );
    const id = '1-ffb4225f-ff51-42ed-acb5-af6714175934';
    const { importMatch } = await importerFor(
      { [`/data/v4/matches/${id}`]: json(match), [`/api/democracy/v1/match/${id}/history`]: 'hang' },
      { timeoutMs: 300 },
    );
    const error = await failureOf(importMatch({ platformMatchId: id }));
    expect(error.code).toBe('upstream_timeout');
    expect(error.message).toContain('FACEIT did not answer the veto history request in time');
  });

  it('stops when the caller gives up', async () => {
    const { importMatch } = await importerFor({ [HLTV_PATH]: 'hang' });
    const caller = new AbortController();
    const pending = failureOf(importMatch({ url: HLTV_URL }, caller.signal));
    caller.abort();
    expect(await pending).toMatchObject({ code: 'upstream_error', message: 'the import was cancelled' });
  });
});
