/**
 * The dispatcher decides what each caller may run, whatever the transport: a page that only shows
 * cannot run commands, only the overlay reports, only the shell and the operator app change settings.
 */
import { describe, expect, it } from 'vitest';
import type { Caller, Role } from '../../src/core/caller.ts';
import { ServiceError } from '../../src/protocol/errors.ts';
import { build } from '../helpers/build.ts';

const as = (role: Role): Caller => ({ transport: 'app', address: '127.0.0.1', role });

async function refusal(run: () => Promise<unknown>): Promise<ServiceError> {
  const error = await run().then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

describe('who may run what', () => {
  it('refuses commands from the pages that only show, and runs them for programs and the operator', async () => {
    const { service } = await build();
    for (const role of ['overlay', 'scene'] as const) {
      const error = await refusal(() => service.commands('toggle_scoreboard', undefined, as(role)));
      expect([error.code, error.message]).toEqual([
        'forbidden',
        `a ${role} page only shows the HUD: send commands from the operator app or the automation server`,
      ]);
    }
    expect(service.hub.hudState().scoreboardVisible).toBeUndefined();
    await service.commands('toggle_scoreboard', undefined, as('program'));
    await service.commands('toggle_scoreboard', undefined, as('operator'));
    expect(service.hub.hudState()).toMatchObject({ revision: 2, scoreboardVisible: false });
  });

  it('lets only the overlay and the shell report, and only the shell report the main window', async () => {
    const { service } = await build();
    for (const role of ['program', 'operator', 'scene'] as const) {
      const error = await refusal(() => service.reports('overlay_report', { statsVisible: true }, as(role)));
      expect([error.code, error.message]).toEqual([
        'forbidden',
        'only a HUD overlay page (role=overlay) reports what it shows',
      ]);
    }
    const mainWindow = await refusal(() =>
      service.reports('host_report', { mainWindowOpen: false }, as('overlay')),
    );
    expect(mainWindow.code).toBe('forbidden');
    expect(service.hub.hudState()).toMatchObject({ revision: 0, mainWindowOpen: true });
    await service.reports('overlay_report', { statsVisible: true }, as('overlay'));
    expect(service.hub.hudState().statsVisible).toBe(true);
  });

  it('lets only the shell and the operator app change the settings', async () => {
    const { service } = await build();
    for (const role of ['program', 'overlay', 'scene'] as const) {
      const error = await refusal(() => service.panel('settings', { lanMode: true }, as(role)));
      expect(error.code).toBe('forbidden');
    }
    expect(service.settings.current().lanMode).toBe(false);
    const answer = await service.panel('settings', { branding: { eventLogo: null } }, as('operator'));
    expect(answer.result).toMatchObject({ settings: { lanMode: false, branding: { eventLogo: null } } });
  });

  it('checks the caller before the payload: a refused caller learns nothing about the payload', async () => {
    const { service } = await build();
    const error = await refusal(() => service.panel('settings', { lanMode: 'maybe' }, as('program')));
    expect(error.code).toBe('forbidden');
    const invalid = await refusal(() => service.panel('settings', { lanMode: 'maybe' }, as('shell')));
    expect(invalid.code).toBe('invalid_payload');
  });
});
