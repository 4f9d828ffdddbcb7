/**
 * Soak: a Companion connection left open against a server that takes 20 commands a second from
 * other clients. Every 2 s the load pauses for the answers in flight, and every feedback and
 * variable on the module's buttons must match what the server reports within 5 s (it takes a few
 * milliseconds: the figures say how many). Prints figures; exits
 * 1 only when a button showed something wrong (memory is reported, not judged).
 *
 *   npm run bench              10 minutes
 *   npm run bench -- --quick   about 20 seconds
 */
import { readFileSync } from 'node:fs';
import { CompanionHost } from '../test/helpers/companion-host.ts';
import { type Answer, type HudServer, startHudServer } from '../test/helpers/hud-server.ts';

const QUICK = process.argv.includes('--quick');
const DURATION_MS = QUICK ? 20_000 : 600_000;
const RATE_PER_S = 20;
const CHECK_EVERY_MS = 2_000;
const SETTLE_TIMEOUT_MS = 5_000;
const SCENES = ['versus', 'talents', 'sponsors', 'mapRecap'];

function rssMiB(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kib / 1024;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

type Buttons = Record<'scoreboard' | 'veto' | 'overlay' | 'anyScene' | 'versus' | 'auto' | 'suggest', string>;
type Check = [what: string, shown: () => unknown, truth: unknown];

/** What each button must show, from the server's read routes (and the last observer answer). */
async function truthOf(
  server: HudServer,
  buttons: Buttons,
  observer: { enabled: boolean; mode: string },
  host: CompanionHost,
): Promise<Check[]> {
  const [{ body: stateBody }, { body: matchBody }] = await Promise.all([
    server.get('/api/state'),
    server.get('/api/match'),
  ]);
  const state = stateBody.state;
  const match = matchBody.match;
  const feedback = (id: string) => () => host.feedbackValue(id);
  const variable = (id: string) => () => host.variables.get(id);
  return [
    ['scoreboard', feedback(buttons.scoreboard), state.scoreboardVisible === true],
    ['veto panel', feedback(buttons.veto), state.vetoVisible === true],
    ['overlay', feedback(buttons.overlay), state.hudWindowOpen === true],
    ['any scene', feedback(buttons.anyScene), state.senScene !== null],
    ['versus', feedback(buttons.versus), state.senScene === 'versus'],
    ['observer auto', feedback(buttons.auto), observer.enabled && observer.mode === 'auto'],
    ['observer suggest', feedback(buttons.suggest), observer.enabled && observer.mode === 'suggest'],
    ['$(event_name)', variable('event_name'), match.eventName],
    ['$(team_a_name)', variable('team_a_name'), match.teamA?.name ?? 'Team A'],
    ['$(scene)', variable('scene'), state.senScene ?? ''],
    ['$(revision)', variable('revision'), state.revision],
  ];
}

async function main(): Promise<void> {
  const server = await startHudServer({ subscription: true });
  const host = await CompanionHost.start({ config: { host: '127.0.0.1', port: server.port, token: '' } });
  let failures = 0;
  try {
    await host.waitForStatus('ok');
    const buttons: Buttons = {
      scoreboard: host.addFeedback('panel_visible', { panel: 'scoreboard' }),
      veto: host.addFeedback('panel_visible', { panel: 'veto' }),
      overlay: host.addFeedback('overlay_open', {}),
      anyScene: host.addFeedback('scene_shown', { scene: 'any' }),
      versus: host.addFeedback('scene_shown', { scene: 'versus' }),
      auto: host.addFeedback('observer_mode', { mode: 'auto' }),
      suggest: host.addFeedback('observer_mode', { mode: 'suggest' }),
    };
    await host.waitFor(
      () => Object.values(buttons).every((id) => host.feedbackValue(id) !== undefined),
      'every feedback has a value',
    );

    let sent = 0;
    let refused = 0;
    let observer = { enabled: false, mode: 'suggest' };
    const inFlight = new Set<Promise<void>>();
    const commands: Array<(n: number) => [string, unknown?]> = [
      () => ['toggle_scoreboard'],
      () => ['toggle_veto'],
      (n) => ['show_sen_scene', { scene: SCENES[n % SCENES.length] }],
      (n) => ['set_event_name', { name: `Soak ${n}` }],
      (n) => [n % 2 ? 'show_overlay' : 'hide_overlay'],
      (n) => ['set_smart_observer', { enabled: n % 3 !== 0, mode: n % 2 ? 'auto' : 'suggest' }],
      () => ['hide_sen_scene'],
      (n) => ['set_teams', { teamA: { name: `Team ${n}` }, teamB: { name: 'FaZe' } }],
    ];
    const send = (n: number) => {
      const [action, payload] = (commands[n % commands.length] as (n: number) => [string, unknown?])(n);
      const request = server.command(action, payload).then((answer: Answer) => {
        if (answer.status !== 200) refused++;
        else if (action === 'set_smart_observer') observer = answer.body.result;
      });
      const tracked = request.finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
      sent++;
    };

    const rss: number[] = [];
    const lags: number[] = [];
    let checks = 0;
    let rereads = 0;
    const started = Date.now();
    let nextCheck = started + CHECK_EVERY_MS;
    let n = 0;
    console.log(
      `soak: ${DURATION_MS / 1000} s at ${RATE_PER_S} commands/s, checking every ${CHECK_EVERY_MS / 1000} s`,
    );

    while (Date.now() - started < DURATION_MS) {
      const due = started + (n * 1000) / RATE_PER_S;
      if (Date.now() < due) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      send(n++);
      if (Date.now() < nextCheck) continue;

      // Checkpoint: let the answers in flight land, then the module must show the server's truth.
      await Promise.all(inFlight);
      let wrong: Array<[string, unknown, unknown]> = [];
      // The server may change by itself meanwhile (the observer's link to the game): when the
      // module is ahead of the truth read, read it again.
      for (let attempt = 1; attempt <= 3; attempt++) {
        if (attempt > 1) rereads++;
        const readAt = Date.now();
        const expected = await truthOf(server, buttons, observer, host);
        const mismatches = () =>
          expected
            .filter(([, shown, truth]) => shown() !== truth)
            .map(([what, shown, truth]) => [what, shown(), truth]);
        try {
          await host.waitFor(() => mismatches().length === 0, 'every button right', SETTLE_TIMEOUT_MS);
          wrong = [];
          lags.push(Date.now() - readAt);
          break;
        } catch {
          wrong = mismatches() as Array<[string, unknown, unknown]>;
          const revision = expected.find(([what]) => what === '$(revision)')?.[2] as number;
          if (!(Number(host.variables.get('revision')) > revision)) break;
        }
      }
      for (const [what, shown, truth] of wrong) {
        failures++;
        console.log(
          `check ${checks + 1}: ${what} shows ${JSON.stringify(shown)} ${SETTLE_TIMEOUT_MS} ms after the last answer; the server says ${JSON.stringify(truth)}`,
        );
      }
      checks++;
      rss.push(rssMiB(host.pid));
      nextCheck = Date.now() + CHECK_EVERY_MS;
    }
    await Promise.all(inFlight);

    const elapsed = (Date.now() - started) / 1000;
    const warm = rss.slice(Math.min(2, rss.length - 1));
    console.log(
      [
        `commands sent: ${sent} in ${elapsed.toFixed(1)} s (${(sent / elapsed).toFixed(1)}/s), refused: ${refused}`,
        `checks: ${checks}, wrong values: ${failures}, truth read again (the server changed by itself): ${rereads}`,
        `buttons right after the truth was read: p50 ${percentile(lags, 50)} ms, max ${Math.max(...lags)} ms`,
        `module variable messages: ${host.variableMessages}`,
        `module RSS: first ${warm[0]?.toFixed(1)} MiB, last ${warm.at(-1)?.toFixed(1)} MiB, max ${Math.max(...warm).toFixed(1)} MiB`,
        `module status: ${host.status?.status} (${host.status?.message})`,
      ].join('\n'),
    );
    if (host.status?.status !== 'ok') failures++;
  } finally {
    await host.stop();
    await server.close();
  }
  process.exitCode = failures === 0 ? 0 : 1;
}

await main();
