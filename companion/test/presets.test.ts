/**
 * The preset page: every button runs a real command with options its schema accepts, every colour
 * comes from a feedback that exists, and the page, drawn from a real show, looks as the operator
 * expects (the screenshot in docs/companion.md is this page).
 */

import { existsSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_FORMS } from '../src/catalogue.ts';
import { faceProblems } from '../src/face-text.ts';
import { payloadOf } from '../src/schema-options.ts';
import { buttonPageHtml, CHROMIUM, type DrawnButton, drawButton, screenshot } from './helpers/button-page.ts';
import { CompanionHost } from './helpers/companion-host.ts';
import { type HudServer, startHudServer } from './helpers/hud-server.ts';

const OUTPUT = fileURLToPath(new URL('../test-output/presets.png', import.meta.url));
const DOCS_IMAGE = fileURLToPath(new URL('../../docs/companion/presets.png', import.meta.url));

let server: HudServer;
let host: CompanionHost;
/** Each preset with the feedback instances placed for it, as on a button of a page. */
let placed: Array<{ preset: any; feedbacks: string[] }>;

beforeAll(async () => {
  server = await startHudServer({ subscription: true });
  host = await CompanionHost.start({ config: { host: '127.0.0.1', port: server.port, token: '' } });
  await host.waitForStatus('ok');
  placed = Object.values(host.presets).map((preset: any, index) => ({
    preset,
    feedbacks: preset.feedbacks.map((feedback: any) =>
      host.addFeedback(feedback.feedbackId, feedback.options, `bank:1/${Math.floor(index / 8)}/${index % 8}`),
    ),
  }));
});
afterAll(async () => {
  await host?.stop();
  await server?.close();
});

function faces(): DrawnButton[] {
  return placed.map(({ preset, feedbacks }) =>
    drawButton(
      preset,
      feedbacks.map((id) => host.feedbackValue(id)),
      (label, id) => (label === host.label ? String(host.variables.get(id) ?? '') : ''),
    ),
  );
}

const face = (name: string) => faces().find((button) => button.name === name) as DrawnButton;
const GREEN = 0x00963c;
const RED = 0xc80000;

describe('the presets', () => {
  it('cover panels, reveal, scenes, replay, veto, observer and match', () => {
    const categories = new Set(Object.values(host.presets).map((preset: any) => preset.category));
    expect([...categories]).toEqual([
      'Panels',
      'Veto reveal',
      'Scenes',
      'Replay',
      'Veto',
      'Sides',
      'Player stats',
      'Map scores',
      'Live game',
      'Observer',
      'Match',
    ]);
  });

  it('run commands of the catalogue with options their schema accepts', () => {
    const problems: string[] = [];
    for (const preset of Object.values(host.presets) as any[]) {
      for (const action of preset.steps[0].down) {
        const form = COMMAND_FORMS.get(action.actionId);
        if (!form) problems.push(`${preset.name}: no command ${action.actionId}`);
        else {
          const options = Object.fromEntries(
            Object.entries(action.options).map(([id, value]) => [
              id,
              // A variable stands for a value of its kind: a score is a number, anything else a map.
              typeof value === 'string'
                ? value.replace(/\$\([^)]+\)/g, (variable) => (/score_[ab]\)/.test(variable) ? '7' : 'nuke'))
                : value,
            ]),
          );
          try {
            payloadOf(form.command.payload, form.fields, options as any);
          } catch (error) {
            problems.push(`${preset.name}: ${(error as Error).message}`);
          }
        }
      }
      for (const feedback of preset.feedbacks) {
        if (!host.feedbacks.has(feedback.feedbackId))
          problems.push(`${preset.name}: no feedback ${feedback.feedbackId}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('take their colour from a feedback, every one of them', () => {
    const plain = (Object.values(host.presets) as any[]).filter(
      (preset) =>
        !preset.feedbacks.some(
          (feedback: any) =>
            (feedback.feedbackId !== 'command_refused' && feedback.style?.bgcolor !== undefined) ||
            // A value feedback writes the number and its colour itself.
            host.feedbacks.get(feedback.feedbackId)?.type === 'advanced',
        ),
    );
    expect(plain.map((preset) => preset.name)).toEqual([]);
  });

  it('flash every button that sends a command when the server refuses it', () => {
    for (const preset of Object.values(host.presets) as any[]) {
      const sends = preset.steps[0].down.length > 0;
      expect(
        preset.feedbacks.some((feedback: any) => feedback.feedbackId === 'command_refused'),
        preset.name,
      ).toBe(sends);
    }
  });
});

describe('the page during a show', () => {
  beforeAll(async () => {
    const steps: Array<[string, unknown?]> = [
      ['set_event_name', { name: 'Budapest Major' }],
      ['veto_start', { boFormat: 'bo3', teamA: { name: 'Vitality' }, teamB: { name: 'FaZe' } }],
      ['veto_select', { map: 'nuke' }],
      ['veto_select', { map: 'overpass' }],
      ['veto_reveal', { instant: false, mode: 'all' }],
      ['show_scoreboard'],
      ['show_veto'],
      ['show_overlay'],
      ['show_sen_scene', { scene: 'versus' }],
      ['set_smart_observer', { enabled: true, mode: 'auto' }],
    ];
    let revision = 0;
    for (const [action, payload] of steps) {
      const answer = await server.command(action, payload);
      expect(answer.status, `${action}: ${JSON.stringify(answer.body)}`).toBe(200);
      revision = answer.body.state.revision;
    }
    // At least that revision, not exactly: enabling the observer makes the server try the game's
    // console port, and the refused connection is a change of its own (revision + 1) that may
    // reach the module before this line runs.
    await host.waitFor(
      () => Number(host.variables.get('revision')) >= revision,
      `$(${host.label}:revision) >= ${revision}`,
    );
    // The last change lights "Observer auto"; every feedback is checked again in the same pass.
    await host.waitFor(() => face('Observer auto').bgcolor === GREEN, 'the last change on the page');
  });

  it('lights what is on air and leaves the rest dark', () => {
    expect(face('Toggle scoreboard').bgcolor).toBe(GREEN);
    expect(face('Toggle stats').bgcolor).not.toBe(GREEN);
    expect(face('Show versus').text).toBe('VERSUS');
    expect(face('Observer auto').bgcolor).toBe(GREEN);
    expect(face('Observer suggest').bgcolor).not.toBe(GREEN);
    expect(face('Observer off').bgcolor).not.toBe(RED);
    expect(face('Save replay').bgcolor).not.toBe(RED);
    expect(face('Connection').text).toBe('HUD\nok');
  });

  it('reads whole words on every face, with the values of this show', () => {
    const problems = faces().flatMap((button) =>
      faceProblems(button.text, Number(button.size)).map((problem) => `${button.name}: ${problem}`),
    );
    expect(problems).toEqual([]);
  });

  it('shows the next veto step and the remaining maps to pick, in green', () => {
    expect(face('Next step').text).toBe('Vitality to pick');
    expect(face('Remaining map 1')).toMatchObject({ text: 'ancient', bgcolor: GREEN });
    expect(face('Remaining map 5')).toMatchObject({ text: 'train', bgcolor: GREEN });
    expect(face('Remaining map 6')).toMatchObject({ text: '', bgcolor: 0 });
    expect(face('Reveal next').text).toBe('REVEAL\nNEXT\n2/2');
    expect(face('Team A')).toMatchObject({ text: 'Vitality\n0', bgcolor: 0x005ac8 });
    expect(face('Map 1').text).toBe('MAP 1\n\n');
  });

  it.skipIf(!existsSync(CHROMIUM) && process.env.HUD_REQUIRE_CHROMIUM !== '1')(
    `is photographed for docs/companion.md${existsSync(CHROMIUM) ? '' : ` (skipped: ${CHROMIUM} is not installed)`}`,
    async () => {
      await mkdir(fileURLToPath(new URL('../test-output/', import.meta.url)), { recursive: true });
      await screenshot(
        buttonPageHtml('hud-automation: show page (Budapest Major, veto running)', faces()),
        OUTPUT,
      );
      expect(existsSync(OUTPUT)).toBe(true);
      if (process.env.UPDATE_DOCS_SCREENSHOT === '1') {
        await mkdir(fileURLToPath(new URL('../../docs/companion/', import.meta.url)), { recursive: true });
        await copyFile(OUTPUT, DOCS_IMAGE);
      }
    },
  );
});
