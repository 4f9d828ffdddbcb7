/**
 * The connection as the operator sees it in Companion's connection list, and what happens to a
 * button whose command is refused.
 */
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompanionHost } from './helpers/companion-host.ts';
import { type HudServer, startHudServer } from './helpers/hud-server.ts';

let server: HudServer;
let host: CompanionHost;
const config = () => ({ host: '127.0.0.1', port: server.port, token: '' });

beforeAll(async () => {
  server = await startHudServer();
  host = await CompanionHost.start({ config: config() });
  await host.waitForStatus('ok');
});
afterAll(async () => {
  await host?.stop();
  await server?.close();
});

/** An HTTP server on this machine that is not hud-automation; counts the connections it gets. */
async function otherService(): Promise<{
  server: Server;
  port: number;
  nthConnection: (n: number) => Promise<void>;
}> {
  let connections = 0;
  const other = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html>Companion web buttons</html>');
  });
  other.on('connection', () => connections++);
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const nthConnection = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (connections < n) return;
        other.off('connection', check);
        resolve();
      };
      other.on('connection', check);
      check();
    });
  return { server: other, port: (other.address() as AddressInfo).port, nthConnection };
}

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('the connection status', () => {
  it('says unreachable when nothing listens at the address', async () => {
    const port = await closedPort();
    await host.updateConfig({ host: '127.0.0.1', port, token: '' });
    await host.waitForStatus('connection_failure');
    expect(host.status?.message).toBe(`unreachable: http://127.0.0.1:${port} (ECONNREFUSED)`);
    expect(host.variables.get('connection_status')).toBe('unreachable');
  });

  it('says wrong service when something else answers there, and retries with a growing pause', async () => {
    const other = await otherService();
    try {
      const started = Date.now();
      const [statusesBefore, logsBefore] = [host.statuses.length, host.logs.length];
      await host.updateConfig({ host: '127.0.0.1', port: other.port, token: '' });
      await host.waitForStatus('bad_config');
      expect(host.status?.message).toBe(
        `wrong service at 127.0.0.1:${other.port}: it is not hud-automation (HTTP 200)`,
      );
      expect(host.variables.get('connection_status')).toBe('wrong service');
      // Attempts at 0, 0.5, 1.5 and 3.5 s: the fourth comes no sooner than 3.5 s after the first.
      await other.nthConnection(4);
      expect(Date.now() - started).toBeGreaterThanOrEqual(3_400);
      // The retries keep the failure on show (no flicker back to "connecting") and log it once.
      expect(host.statuses.slice(statusesBefore).map((change) => change.status)).toEqual([
        'connecting',
        'bad_config',
      ]);
      expect(
        host.logs.slice(logsBefore).filter((line) => line.message.startsWith('wrong service')),
      ).toHaveLength(1);
    } finally {
      other.server.closeAllConnections();
      await new Promise((resolve) => other.server.close(resolve));
    }
  });

  it('says wrong service when what listens there does not speak HTTP', async () => {
    const ssh = createTcpServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
    const sockets = new Set<import('node:net').Socket>();
    ssh.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => ssh.listen(0, '127.0.0.1', resolve));
    const { port } = ssh.address() as AddressInfo;
    try {
      await host.updateConfig({ host: '127.0.0.1', port, token: '' });
      await host.waitFor(() => /does not answer HTTP$/.test(host.status?.message ?? ''), 'not HTTP');
      expect(host.status).toEqual({
        status: 'bad_config',
        message: `wrong service at 127.0.0.1:${port}: it does not answer HTTP`,
      });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => ssh.close(resolve));
    }
  });

  it('says what to fix in a config that names no server', async () => {
    await host.updateConfig({ host: '', port: 44555, token: '' });
    await host.waitForStatus('bad_config');
    expect(host.status?.message).toMatch(/^host "" is not an address/);
    expect(host.variables.get('connection_status')).toBe('bad config');
    await host.updateConfig({ host: '127.0.0.1', port: server.port, token: 'not-a-token' });
    await host.waitFor(
      () => /access token is 43 characters/.test(host.status?.message ?? ''),
      'token complaint',
    );
  });

  it('catches up from the hello snapshot after a reconnect, with what changed while away', async () => {
    const scoreboard = host.addFeedback('panel_visible', { panel: 'scoreboard' });
    await host.updateConfig(config());
    await host.waitForStatus('ok');
    await host.waitForFeedback(scoreboard, false);
    // Away: the module points elsewhere while another client changes the show.
    await host.updateConfig({ host: '127.0.0.1', port: await closedPort(), token: '' });
    await host.waitForStatus('connection_failure');
    const answer = await server.command('show_scoreboard');
    await server.command('set_event_name', { name: 'IEM Cologne' });
    expect(host.feedbackValue(scoreboard)).toBe(false);
    await host.updateConfig(config());
    await host.waitForFeedback(scoreboard, true);
    await host.waitForVariable('event_name', 'IEM Cologne');
    expect(host.variables.get('revision')).toBe(answer.body.state.revision + 1);
  });

  it('survives a restart of the server: reconnects by itself and follows changes again', async () => {
    const scoreboard = host.addFeedback('panel_visible', { panel: 'scoreboard' });
    await host.waitForFeedback(scoreboard, true);
    const seen = host.statuses.length;
    await server.restart();
    await host.waitFor(
      () =>
        host.statuses.slice(seen).some((change) => change.status !== 'ok') && host.status?.status === 'ok',
      'a drop and a reconnect',
      20_000,
    );
    expect(host.feedbackValue(scoreboard)).toBe(true);
    const answer = await server.command('hide_scoreboard');
    await host.waitForFeedback(scoreboard, false);
    expect(host.variables.get('revision')).toBe(answer.body.state.revision);
  });
});

describe('a refused command', () => {
  it('is logged with the server message and flashes its button, and only its button', async () => {
    const pressed = host.addFeedback('command_refused', {}, 'bank:1/0/1');
    const other = host.addFeedback('command_refused', {}, 'bank:1/0/2');
    await host.waitForFeedback(pressed, false);
    await host.runAction('veto_select', { map: 'nuke' }, 'bank:1/0/1');
    const line = await host.waitForLog(/^veto_select refused/);
    expect(line).toEqual({
      level: 'warn',
      message: 'veto_select refused (409 conflict): no veto session is running: start one with veto_start',
    });
    // Flashing for 2 s: on and off every quarter second, then off.
    const started = Date.now();
    const flashes = () => (host.feedbackHistory.get(pressed) ?? []).filter((value) => value === true).length;
    await host.waitFor(
      () => flashes() >= 4 && host.feedbackValue(pressed) === false,
      'four flashes, then off',
      4_000,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    expect(host.feedbackHistory.get(other)?.every((value) => value === false)).toBe(true);
  });

  it('is not retried', async () => {
    const { body } = await server.get('/internal/requests');
    const selects = body.requests.filter((record: { request: string }) =>
      record.request.endsWith('/veto_select'),
    );
    expect(selects).toHaveLength(1);
    expect(selects[0].status).toBe(409);
  });

  it('tells that the main window is closed (503)', async () => {
    expect((await server.post('/internal/host_report', { mainWindowOpen: false })).status).toBe(200);
    await host.runAction('set_event_name', { name: 'Cologne' });
    const line = await host.waitForLog(/^set_event_name refused/);
    expect(line.message).toMatch(/^set_event_name refused \(503 unavailable\): .*main window/);
    await server.post('/internal/host_report', { mainWindowOpen: true });
  });

  it('with bad input is not sent: the log names the option', async () => {
    const commands = async () =>
      (await server.get('/internal/requests')).body.requests.filter((record: { request: string }) =>
        record.request.startsWith('POST /api/actions/'),
      ).length;
    const before = await commands();
    const pressed = host.addFeedback('command_refused', {}, 'bank:1/0/3');
    await host.runAction('set_event_name', { name: 'x'.repeat(121) }, 'bank:1/0/3');
    expect(host.logs.at(-1)).toEqual({
      level: 'warn',
      message: 'set_event_name not sent: name: at most 120 characters (121 given)',
    });
    await host.waitForFeedback(pressed, true);
    expect(await commands()).toBe(before);
  });
});
