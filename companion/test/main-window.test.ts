/**
 * The main window made visible on the desk: while the operator app is closed the module's status
 * says "main window closed", and the buttons whose commands then answer 503 (veto, match,
 * observer) say so on their faces; the panel buttons, which still work, do not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompanionHost } from './helpers/companion-host.ts';
import { type HudServer, startHudServer } from './helpers/hud-server.ts';

let server: HudServer;
let host: CompanionHost;

beforeAll(async () => {
  server = await startHudServer({ subscription: true });
  host = await CompanionHost.start({ config: { host: '127.0.0.1', port: server.port, token: '' } });
  await host.waitForStatus('ok');
});
afterAll(async () => {
  await host?.stop();
  await server?.close();
});

/** What the application shell reports of its window (the operator app's page does the same). */
async function mainWindow(open: boolean): Promise<void> {
  const answer = await server.post('/internal/host_report', { mainWindowOpen: open, signedIn: open });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

describe('the main window, on the desk', () => {
  it('puts the buttons that would answer 503 under a "main window closed" face, and nothing else', () => {
    const presets = Object.values(host.presets) as any[];
    const marked = (preset: any) =>
      preset.feedbacks.some((feedback: any) => feedback.feedbackId === 'main_window_closed');
    const byCommand = (id: string) =>
      presets.filter((preset) => preset.steps[0].down.some((action: any) => action.actionId === id));
    for (const id of ['veto_undo', 'veto_cancel', 'veto_select', 'set_smart_observer', 'veto_reveal'])
      for (const preset of byCommand(id)) expect(marked(preset), preset.name).toBe(true);
    for (const id of ['toggle_scoreboard', 'show_sen_scene', 'save_replay', 'swap_sides'])
      for (const preset of byCommand(id)) expect(marked(preset), preset.name).toBe(false);
    const face = byCommand('veto_undo')[0].feedbacks.find((f: any) => f.feedbackId === 'main_window_closed');
    expect(face.style.text).toBe('MAIN\\nWINDOW\\nCLOSED');
  });

  it('shows "main window closed" as the status while the operator app is closed, and ok again once it is back', async () => {
    const closed = host.addFeedback('main_window_closed', {});
    await host.waitForFeedback(closed, false);

    await mainWindow(false);
    await host.waitForStatus('unknown_warning');
    expect(host.status?.message).toBe(
      'main window closed: open the operator app and sign in (veto, match and observer commands answer 503 until then)',
    );
    await host.waitForFeedback(closed, true);
    // What the face says is what the server does: a veto command answers 503.
    expect((await server.command('veto_status')).status).toBe(503);
    expect((await server.command('toggle_scoreboard')).status).toBe(200);

    await mainWindow(true);
    await host.waitForStatus('ok');
    await host.waitForFeedback(closed, false);
    expect((await server.command('veto_status')).status).toBe(200);
  });
});
