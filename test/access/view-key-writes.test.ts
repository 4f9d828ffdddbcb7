/**
 * The view key reads, never writes (issue 37, defect 3), from a device of the local network in a
 * network namespace, LAN mode on: the HUD overlay's WebSocket with the view key, under every role a
 * page names, is refused its report (panel flags, presets, opened) and every trigger with 403
 * `forbidden`, and every write route of the application server refuses the key; the state, the preset
 * catalogue, the secrets and the settings stay as they were. The same device with the access token
 * (the credential that may write) still reports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, get } from '../helpers/build.ts';
import { createTestNetwork, netnsSkipReason, type TestNetwork } from '../helpers/netns.ts';

const skipReason = netnsSkipReason();

type Session = Awaited<ReturnType<TestNetwork['openWs']>>;

/** The answer to the message with this id. */
async function answerTo(session: Session, id: string) {
  const found = () => session.messages.find((m) => (m.data as { id?: string }).id === id)?.data;
  await session.waitUntil(() => found() !== undefined, 2000);
  return found() as Record<string, unknown> | undefined;
}

const REPORT = { opened: true, scoreboardVisible: true, presets: [{ id: 'forged', name: 'Forged' }] };

describe.skipIf(skipReason)(
  `the view key from the network never writes${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let net: TestNetwork;
    beforeAll(async () => {
      net = await createTestNetwork();
    });
    afterAll(async () => {
      await net?.close();
    });

    it("refuses the overlay's report and every trigger over its WebSocket, whatever role it names; nothing changes", async () => {
      const server = await build({ overrides: { lanMode: true } });
      const port = server.applicationPort;
      const viewKey = server.service.secrets.viewKey();
      const before = (await get(server, '/api/state')).body.state;

      for (const role of ['overlay', 'scene', 'operator', '']) {
        const path = `/ws?view=${viewKey}${role ? `&role=${role}` : ''}`;
        const viewer = await net.openWs('lan', { port, path });
        await viewer.settled(5000);
        expect(viewer.outcome, role).toBe('open');
        expect(await viewer.nextMessage()).toMatchObject({ type: 'hello' });
        viewer.send({ type: 'report', id: 'r', report: REPORT });
        const reported = await answerTo(viewer, 'r');
        expect(reported, role).toMatchObject({ type: 'result', ok: false, status: 403, error: 'forbidden' });
        expect(String(reported?.message)).toContain('only reads');
        viewer.send({ type: 'trigger', id: 't', action: 'show_scoreboard' });
        expect(await answerTo(viewer, 't'), role).toMatchObject({
          ok: false,
          status: 403,
          error: 'forbidden',
        });
        await viewer.close();
      }

      expect((await get(server, '/api/state')).body.state).toEqual(before);
      expect((await get(server, '/api/presets')).body.presets).toEqual([]);

      // The credential that may write: the same device with the access token reports what it shows.
      const token = server.service.secrets.token();
      const overlay = await net.openWs('lan6', { port, path: `/ws?role=overlay&token=${token}` });
      await overlay.settled(5000);
      expect(await overlay.nextMessage()).toMatchObject({ type: 'hello' });
      overlay.send({ type: 'report', id: 'r', report: REPORT });
      expect(await answerTo(overlay, 'r')).toMatchObject({ type: 'result', ok: true });
      expect((await get(server, '/api/state')).body.state).toMatchObject({
        scoreboardVisible: true,
        hudWindowOpen: true,
      });
      await overlay.close();
    });

    it('refuses the view key on every write route of the application server; nothing changes', async () => {
      const server = await build({ overrides: { lanMode: true } });
      const port = server.applicationPort;
      const { secrets } = server.service;
      const viewKey = secrets.viewKey();
      const held = () => [secrets.token(), secrets.viewKey(), secrets.signInKey()];
      const keys = held();
      const before = (await get(server, '/api/state')).body.state;

      // The pages it opens load: the observer page and the HUD.
      for (const page of ['/observer', '/hud']) {
        expect((await net.http('lan', { port, path: `${page}?view=${viewKey}` })).status, page).toBe(200);
      }
      const writes: Array<[string, unknown]> = [
        ['/api/panel/settings', { lanMode: false }],
        ['/api/panel/subscription', { active: true }],
        ['/api/panel/token/regenerate', undefined],
        ['/api/panel/view-key/regenerate', undefined],
        ['/api/panel/sign-in-key/regenerate', undefined],
        ['/api/panel/sessions/end', { id: 'x' }],
        ['/api/panel/media', { data: 'iVBORw0KGgo=' }],
        ['/api/panel/game/install', {}],
        ['/api/actions/show_scoreboard', undefined],
      ];
      for (const [path, body] of writes) {
        const answer = await net.http('lan', { port, method: 'POST', path: `${path}?view=${viewKey}`, body });
        expect(answer.status, path).toBe(401);
        expect(answer.json, path).toMatchObject({ ok: false, error: 'unauthorized' });
      }

      expect((await get(server, '/api/state')).body.state).toEqual(before);
      expect(held()).toEqual(keys);
      expect(server.service.settings.current().lanMode).toBe(true);
    });
  },
);
