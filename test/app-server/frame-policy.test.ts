/**
 * Anti-framing over real HTTP: every answer of the application server forbids framing
 * (frame-ancestors 'none' and X-Frame-Options DENY) but the pages OBS shows, the HUD and the scenes.
 */
import { describe, expect, it } from 'vitest';
import { SCENE_PAGES } from '../../src/app-server/page-paths.ts';
import { NO_FRAMING } from '../../src/app-server/pages.plugin.ts';
import type { RunningServer } from '../../src/server.ts';
import { build } from '../helpers/build.ts';

async function headersOf(server: RunningServer, path: string, init: RequestInit = {}) {
  const response = await fetch(`${server.applicationUrl}${path}`, { redirect: 'manual', ...init });
  await response.arrayBuffer();
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    csp: response.headers.get('content-security-policy'),
    xfo: response.headers.get('x-frame-options'),
  };
}

describe('who may frame the pages of the application server', () => {
  it("forbids framing the operator app, its sign-in, the observer's page and every other answer", async () => {
    const server = await build();
    const signInLink = new URL(server.signInUrl());
    const signedIn = await fetch(server.signInUrl(), { redirect: 'manual' });
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

    const denied: Array<[string, RequestInit?]> = [
      ['/'], // the sign-in form, for a browser without a session
      ['/', { headers: { cookie } }], // the operator app
      [`/${signInLink.search}`], // the sign-in address (its redirect)
      ['/index.html'],
      ['/observer'],
      ['/observer.html'],
      ['/auth/status'],
      ['/api/state'],
      ['/api/panel/requests', { headers: { cookie } }],
      ['/scenes/no-such-scene'], // a 404 in the envelope
      ['/no/such/page'],
    ];
    for (const [path, init] of denied) {
      const answer = await headersOf(server, path, init);
      expect(answer.csp, path).toBe(NO_FRAMING['content-security-policy']);
      expect(answer.xfo, path).toBe('DENY');
    }
    // The pages themselves are what they seem: HTML, answered.
    expect(await headersOf(server, '/', { headers: { cookie } })).toMatchObject({
      status: 200,
      type: expect.stringMatching(/text\/html/),
    });
    expect(await headersOf(server, '/observer')).toMatchObject({
      status: 200,
      type: expect.stringMatching(/text\/html/),
    });
    expect((await headersOf(server, `/${signInLink.search}`)).status).toBe(303);
  });

  it('lets the HUD and every scene page be framed: they only show, and productions compose them', async () => {
    const server = await build();
    for (const path of ['/hud', '/hud/', ...SCENE_PAGES.map((scene) => `/scenes/${scene}`)]) {
      const answer = await headersOf(server, path);
      expect(answer, path).toMatchObject({ status: 200, type: expect.stringMatching(/text\/html/) });
      expect(answer.csp, path).toBeNull();
      expect(answer.xfo, path).toBeNull();
    }
  });
});
