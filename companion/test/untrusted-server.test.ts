/**
 * Whatever answers at the configured address is untrusted input: a stand-in that speaks
 * hud-automation's `GET /` and then sends malformed hellos, events, huge frames and answers that
 * never end. The module refuses each with a status and a log line that say why, never dies, and
 * connects by itself once a good server answers.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CompanionHost } from './helpers/companion-host.ts';
import {
  endlessAnswer,
  goodHello,
  goodSnapshot,
  type StandIn,
  startStandIn,
} from './helpers/stand-in-server.ts';

let standIn: StandIn;
let host: CompanionHost;
const config = () => ({ host: '127.0.0.1', port: standIn.port, token: '' });
// The bound docs/companion.md promises for one answer or message.
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;
const where = () => `127.0.0.1:${standIn.port}`;

beforeAll(async () => {
  standIn = await startStandIn();
  host = await CompanionHost.start({ config: config() });
  await host.waitForStatus('ok');
});
beforeEach(() => standIn.reset());
afterEach(() => {
  // The module is still there after each test: a crash would end its process.
  expect(host.pid !== undefined && processAlive(host.pid)).toBe(true);
});
afterAll(async () => {
  await host?.stop();
  await standIn?.close();
});

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Points the module at the stand-in again (a fresh connection) and waits for the status `message`. */
async function connectAndExpect(message: string): Promise<void> {
  const logsBefore = host.logs.length;
  await host.updateConfig(config());
  // The status comes first, the log line just after it.
  const logged = () =>
    host.logs.slice(logsBefore).some((line) => line.level === 'warn' && line.message === message);
  await host.waitFor(() => host.status?.message === message && logged(), `status and log line "${message}"`);
  expect(host.status?.status).toBe('bad_config');
  expect(host.variables.get('connection_status')).toBe('wrong service');
}

const hello = (snapshot: unknown) =>
  JSON.stringify({ type: 'hello', service: 'hud-automation', version: '0.1.0', protocol: 1, snapshot });

describe('a malformed hello', () => {
  const cases: Array<[string, string | Buffer, string]> = [
    [
      'an empty snapshot',
      hello({}),
      'its hello does not match protocol 1 (/snapshot/revision: Expected required property)',
    ],
    [
      'no snapshot',
      JSON.stringify({ type: 'hello', service: 'hud-automation' }),
      'its hello does not match protocol 1 (/snapshot: Expected required property)',
    ],
    [
      'a field of the wrong type',
      hello({ ...goodSnapshot(3), match: { ...goodSnapshot(3).match, maps: 'nuke' } }),
      'its hello does not match protocol 1 (/snapshot/match/maps: Expected array)',
    ],
    ['text that is not JSON', '<html>hello</html>', 'a message that is not JSON'],
    ['JSON without a type', '[1,2,3]', 'a message does not match protocol 1 (/: Expected object)'],
    [
      'a frame over the bound',
      hello({ ...goodSnapshot(3), padding: 'x'.repeat(MAX_ANSWER_BYTES) }),
      'a message over 8 MiB',
    ],
  ];

  it.each(cases)('(%s) is refused with a status that says why', async (_name, frame, why) => {
    standIn.onSocket = (socket) => socket.send(frame);
    await connectAndExpect(`wrong service at ${where()}: ${why}: refused`);
  });

  it('is followed by a connection of its own once the server sends a good one', async () => {
    standIn.onSocket = (socket) => socket.send(hello({}));
    await connectAndExpect(
      `wrong service at ${where()}: its hello does not match protocol 1 (/snapshot/revision: Expected required property): refused`,
    );
    // No config change: the module's own retry finds the good hello.
    standIn.onSocket = (socket) => socket.send(goodHello(7, 'Recovered Masters'));
    await host.waitForStatus('ok');
    expect(host.status?.message).toBe('connected to hud-automation 0.1.0-stand-in');
    await host.waitForVariable('event_name', 'Recovered Masters');
    expect(host.variables.get('revision')).toBe(7);
  });
});

describe('a malformed message after a good hello', () => {
  it('ends the connection with a status that says why, and the module connects again', async () => {
    const socketsBefore = standIn.sockets;
    let first = true;
    standIn.onSocket = (socket) => {
      socket.send(goodHello(1, 'Before the break'));
      if (first) socket.send(JSON.stringify({ type: 'event', event: 'match', revision: 2, data: {} }));
      first = false;
    };
    await host.updateConfig(config());
    await host.waitFor(
      () => /a match event/.test(host.status?.message ?? ''),
      'the refused event in the status',
    );
    expect(host.status).toEqual({
      status: 'bad_config',
      message: `wrong service at ${where()}: a match event does not match protocol 1 (/data/eventName: Expected required property): refused`,
    });
    // The buttons keep the last good state; the next connection's hello replaces it.
    expect(host.variables.get('event_name')).toBe('Before the break');
    await standIn.nthSocket(socketsBefore + 2);
    await host.waitForStatus('ok');
  });
});

describe('an answer that never ends', () => {
  // Far past the bound: a module without one would read all of it, then end with a bad answer.
  const GIVE_UP_AFTER = 8 * MAX_ANSWER_BYTES;

  it('to a command is cut at the bound, the request aborted and the button told', async () => {
    const streamed = new Promise<{ bytes: number; abortedByReader: boolean }>((resolve) => {
      standIn.onCommand = (_req, res) => resolve(endlessAnswer(res, GIVE_UP_AFTER));
    });
    standIn.onSocket = (socket) => socket.send(goodHello());
    await host.updateConfig(config());
    await host.waitForStatus('ok');
    const pressed = host.addFeedback('command_refused', {}, 'bank:9/0/1');
    await host.runAction('show_scoreboard', {}, 'bank:9/0/1');
    const { bytes, abortedByReader } = await streamed;
    expect(abortedByReader).toBe(true);
    expect(bytes).toBeGreaterThan(MAX_ANSWER_BYTES);
    expect(bytes).toBeLessThan(GIVE_UP_AFTER);
    expect(host.logs).toContainEqual({
      level: 'warn',
      message: 'show_scoreboard refused (200 bad_answer): the answer is over 8 MiB: the request was aborted',
    });
    await host.waitForFeedback(pressed, true);
  });

  it('to GET / is cut at the bound and the status says so', async () => {
    const streamed = new Promise<{ bytes: number; abortedByReader: boolean }>((resolve) => {
      standIn.onProbe = (_req, res) => resolve(endlessAnswer(res, GIVE_UP_AFTER));
    });
    await connectAndExpect(`wrong service at ${where()}: its answer to GET / is over 8 MiB`);
    const { bytes, abortedByReader } = await streamed;
    expect(abortedByReader).toBe(true);
    expect(bytes).toBeLessThan(GIVE_UP_AFTER);
  });
});
