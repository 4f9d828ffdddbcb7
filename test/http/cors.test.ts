import { describe, expect, it } from 'vitest';
import { build } from '../helpers/build.ts';

const PUBLIC = ['/health', '/api/presets', '/api/actions'];
const origin = 'https://theme-editor.example';

describe('CORS for the public reads', () => {
  it('GET /health, /api/presets and /api/actions with an Origin answer Access-Control-Allow-Origin: *', async () => {
    const server = await build();
    for (const path of PUBLIC) {
      const response = await fetch(`${server.httpUrl}${path}`, { headers: { origin } });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(await response.json()).toMatchObject({ ok: true });
    }
  });

  it('a preflight for them is 204 and allows GET; a preflight for a command is 403', async () => {
    const server = await build();
    const preflight = (path: string, method: string) =>
      fetch(`${server.httpUrl}${path}`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': method },
      });
    for (const path of PUBLIC) {
      const response = await preflight(path, 'GET');
      expect(response.status, path).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    }
    const command = await preflight('/api/actions/toggle_scoreboard', 'POST');
    expect(command.status).toBe(403);
    expect(command.headers.get('access-control-allow-origin')).toBeNull();
    expect(await command.json()).toMatchObject({ ok: false, error: 'forbidden' });
  });

  it('everything else keeps refusing an Origin, without CORS headers', async () => {
    const server = await build();
    for (const path of ['/api/state', '/api/match', '/api/veto', '/internal/token']) {
      const response = await fetch(`${server.httpUrl}${path}`, { headers: { origin } });
      expect(response.status, path).toBe(403);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
    const posted = await fetch(`${server.httpUrl}/api/actions/toggle_scoreboard`, {
      method: 'POST',
      headers: { origin },
    });
    expect(posted.status).toBe(403);
  });

  it('a request without Origin gets no CORS header (programs do not need it)', async () => {
    const server = await build();
    const response = await fetch(`${server.httpUrl}/health`);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});
