// The client is exercised through the importer, as an import uses it: real sockets, real fetch.
import { describe, expect, it } from 'vitest';
import { createSourceClient, MAX_REDIRECTS } from '../../src/import/fetch-source.ts';
import { DEFAULT_IMPORT_SOURCES } from '../../src/import/import-sources.ts';
import { createMatchImporter } from '../../src/import/match-importer.ts';
import { REMOTE_TEXT_MAX } from '../../src/net/network-errors.ts';
import {
  currentSourceServer,
  failureOf,
  fixtureJson,
  html,
  importerFor,
  json,
  type Route,
  startSourceServer,
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

describe('what another server writes is quoted within a bound (issue 37, defect 11)', () => {
  it('a 6,000-character status text, bot-check header and content type are cut where they enter', async () => {
    const long = (what: string) => `${what} ${'x'.repeat(6000)}`;
    // Each message quotes the server's text, cut to REMOTE_TEXT_MAX characters ending in "…".
    const cases: Array<[Route, string, RegExp]> = [
      [
        { status: 500, statusText: long('Broken'), body: 'oops' },
        HLTV_PATH,
        /^HLTV answered 500 (Broken x+…) to the match page request: the site has a problem/,
      ],
      [
        html('<title>Just a moment...</title>', 403, { 'cf-mitigated': long('challenge') }),
        HLTV_PATH,
        /a Cloudflare bot check \(cf-mitigated: (challenge x+…)\)/,
      ],
      [
        { headers: { 'content-type': long('text/html') }, body: '<p>' },
        `/data/v4/matches/${FACEIT_ID}`,
        /something that is not JSON \((text\/html x+…)\)$/,
      ],
    ];
    for (const [route, path, message] of cases) {
      const { importMatch } = await importerFor({ [path]: route });
      const error = await failureOf(
        importMatch(path === HLTV_PATH ? { url: HLTV_URL } : { platformMatchId: FACEIT_ID }),
      );
      const quoted = message.exec(error.message)?.[1];
      expect(quoted, error.message.slice(0, 300)).toBeDefined();
      expect([...(quoted ?? '')]).toHaveLength(REMOTE_TEXT_MAX);
    }
  });
});

describe('redirects', () => {
  /** A client as an import makes it, without an address guard, with a budget of its own. */
  const client = () => createSourceClient({ signal: AbortSignal.timeout(5000) });
  const request = (url: string, headers: Record<string, string> = {}) => ({
    source: 'the test source',
    what: 'thing',
    url,
    notFound: 'nothing there',
    headers,
  });

  it('follows a redirect on the same site with the request’s headers', async () => {
    const source = await startSourceServer({
      '/old': { status: 301, headers: { location: '/new' }, body: '' },
      '/new': json({ found: true }),
    });
    expect(await client().json(request(`${source.url}/old`, { Authorization: 'Bearer key' }))).toEqual({
      found: true,
    });
    expect(source.requests.map(({ path, headers }) => [path, headers.authorization])).toEqual([
      ['/old', 'Bearer key'],
      ['/new', 'Bearer key'],
    ]);
    await source.close();
  });

  it('never sends the request’s own headers (an API key) to the site a redirect names', async () => {
    const other = await startSourceServer({ '/landing': json({ elsewhere: true }) });
    const source = await startSourceServer({
      '/api': { status: 302, headers: { location: `${other.url}/landing` }, body: '' },
    });
    expect(await client().json(request(`${source.url}/api`, { Authorization: 'Bearer key' }))).toEqual({
      elsewhere: true,
    });
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0]?.headers.authorization).toBeUndefined();
    expect(other.requests[0]?.headers['user-agent']).toMatch(/^hud-automation\//);
    await Promise.all([source.close(), other.close()]);
  });

  it(`gives up after ${MAX_REDIRECTS} redirects, and on one to something that is not http(s)`, async () => {
    const source = await startSourceServer({
      '/loop': { status: 307, headers: { location: '/loop' }, body: '' },
      '/file': { status: 302, headers: { location: 'file:///etc/passwd' }, body: '' },
    });
    await expect(client().json(request(`${source.url}/loop`))).rejects.toMatchObject({
      code: 'upstream_error',
      message: `the test source redirected the thing request more than ${MAX_REDIRECTS} times`,
    });
    expect(source.count('/loop')).toBe(MAX_REDIRECTS + 1);
    await expect(client().json(request(`${source.url}/file`))).rejects.toMatchObject({
      message:
        'the test source redirected the thing request to something that is not an http(s) address (file:///etc/passwd)',
    });
    await source.close();
  });

  it('the importers’ sources are the operator’s: a source on this machine is asked (no address guard)', async () => {
    const source = await startSourceServer({ '/here': json({ local: true }) });
    expect(await client().json(request(`${source.url}/here`))).toEqual({ local: true });
    await source.close();
  });
});
