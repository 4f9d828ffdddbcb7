import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromCallback, SimulatedClock } from 'xstate';
import type {
  ObsSocketCommand,
  ObsSocketEvent,
  ObsSocketInput,
} from '../../machines/obs-connection.machine.ts';
import { obsConnectionMachine } from '../../machines/obs-connection.machine.ts';
import { logObsConnection } from '../../src/obs/obs-log.ts';

const SETTINGS = { url: 'ws://127.0.0.1:4455', password: 'secret', enabled: true };
const REFUSED: ObsSocketEvent = {
  type: 'obs.socket.closed',
  code: 1006,
  reason: 'connect ECONNREFUSED 127.0.0.1:4455',
  failure: 'refused',
};

const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** The OBS connection with a socket the test plays, its log lines, and a clock for the retries. */
function start(settings = SETTINGS) {
  let report: (event: ObsSocketEvent) => void = () => {};
  const obsSocket = fromCallback<ObsSocketCommand, ObsSocketInput>(({ sendBack }) => {
    report = sendBack;
  });
  const clock = new SimulatedClock();
  const actor = createActor(obsConnectionMachine.provide({ actors: { obsSocket } }), {
    clock,
    input: settings,
  });
  const lines: Array<{ level: number; msg: string; obs?: Record<string, unknown> }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  actor.start();
  const stop = logObsConnection(actor, logger);
  stops.push(() => {
    stop();
    actor.stop();
  });
  return { actor, clock, lines, report: (event: ObsSocketEvent) => report(event) };
}

describe('the OBS connection in the log', () => {
  it('says why OBS is not connected once per change of reason, not once per retry', () => {
    const obs = start();
    expect(obs.lines).toEqual([]);
    for (let attempt = 0; attempt < 5; attempt++) {
      obs.report(REFUSED);
      obs.clock.increment(10_000);
    }
    expect(obs.lines).toHaveLength(1);
    expect(obs.lines[0]).toMatchObject({
      level: 40,
      obs: {
        url: SETTINGS.url,
        reason: 'refused',
        code: 1006,
        detail: 'connect ECONNREFUSED 127.0.0.1:4455',
      },
    });
    expect(obs.lines[0]?.msg).toContain('WebSocket Server Settings');

    obs.report({ type: 'obs.socket.connected' });
    obs.report({ type: 'obs.socket.closed', code: 1001, reason: '', failure: 'closed' });
    obs.clock.increment(1_000);
    obs.report(REFUSED);
    obs.clock.increment(2_000);
    obs.report(REFUSED);
    obs.clock.increment(5_000);
    obs.report({
      type: 'obs.socket.closed',
      code: 4009,
      reason: 'Authentication failed.',
      failure: 'auth_failed',
    });
    // Probes every minute that fail again change nothing.
    for (let probe = 0; probe < 3; probe++) {
      obs.clock.increment(60_000);
      obs.report({
        type: 'obs.socket.closed',
        code: 4009,
        reason: 'Authentication failed.',
        failure: 'auth_failed',
      });
    }
    expect(obs.lines.map((line) => line.obs?.reason ?? line.msg)).toEqual([
      'refused',
      'OBS connected',
      'closed',
      'refused',
      'auth_failed',
    ]);
  });

  it('a bad URL says the right form; switching off is said once at info', () => {
    const obs = start({ ...SETTINGS, url: 'localhost:4455' });
    obs.report({
      type: 'obs.socket.closed',
      code: -1,
      reason: 'The URL\'s protocol must be one of "ws:", "wss:", "http:", "https:", or "ws+unix:"',
      failure: 'bad_url',
    });
    expect(obs.lines.at(-1)?.msg).toContain('ws://127.0.0.1:4455');
    obs.actor.send({ type: 'obs.configure', ...SETTINGS, enabled: false });
    obs.actor.send({ type: 'obs.configure', ...SETTINGS, enabled: false });
    expect(obs.lines.slice(1)).toEqual([
      expect.objectContaining({ level: 30, msg: 'OBS connection switched off' }),
    ]);
  });
});
