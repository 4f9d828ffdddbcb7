/**
 * The recent-requests list keeps each failure's message (cut to REQUEST_MESSAGE_MAX), and publishes
 * it as the answer said it: over HTTP, over the automation server's WebSocket, for a request the
 * router never saw, in GET /api/panel/requests and in the operator app's `panel.request` events.
 */
import { describe, expect, it } from 'vitest';
import { REPEAT_WINDOW_MS, RecentRequests } from '../../src/access/recent-requests.ts';
import { createNoticeBus } from '../../src/core/notices.ts';
import { REQUEST_MESSAGE_MAX } from '../../src/protocol/answers.ts';
import type { RunningServer } from '../../src/server.ts';
import { build, command } from '../helpers/build.ts';
import { rawRequest } from '../helpers/raw-http.ts';
import { connect } from '../helpers/ws-client.ts';

/** Opens the sign-in address as a browser would; the session cookie. */
async function signIn(server: RunningServer): Promise<string> {
  const response = await fetch(server.signInUrl(), { redirect: 'manual' });
  expect(response.status).toBe(303);
  return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

describe('RecentRequests keeps messages bounded', () => {
  it('keeps a short message as it is and cuts a long one to REQUEST_MESSAGE_MAX, ending with …', () => {
    const notices = createNoticeBus();
    const recent = new RecentRequests(notices);
    const refused = { transport: 'http', request: 'POST /x', status: 400, address: '127.0.0.1' } as const;
    recent.add({ ...refused, error: 'invalid_payload', message: 'teamA.name: at most 64 characters' });
    recent.add({ ...refused, error: 'invalid_payload', message: 'x'.repeat(10_000) });
    const [long, short] = recent.list();
    expect(short?.message).toBe('teamA.name: at most 64 characters');
    expect(long?.message).toHaveLength(REQUEST_MESSAGE_MAX);
    expect(long?.message?.endsWith('x…')).toBe(true);
  });

  it('never cuts a character in half', () => {
    const notices = createNoticeBus();
    const recent = new RecentRequests(notices);
    // A two-unit character (an emoji in a team name) right at the cut.
    const message = `${'a'.repeat(REQUEST_MESSAGE_MAX - 2)}🐻 and more`;
    recent.add({ transport: 'ws', request: 'trigger set_teams', status: 400, address: '::1', message });
    const kept = recent.list()[0]?.message ?? '';
    expect(kept.length).toBeLessThanOrEqual(REQUEST_MESSAGE_MAX);
    expect(kept).toBe(`${'a'.repeat(REQUEST_MESSAGE_MAX - 2)}…`);
  });
});

describe('a refusal that repeats takes one entry', () => {
  const wrongToken = {
    transport: 'app',
    request: 'POST /gsi',
    status: 401,
    error: 'unauthorized',
    message: 'the frame does not carry the auth token of the installed cfg file',
    address: '10.0.0.7',
  } as const;

  it('counts on its entry while it comes within the window; the useful entries stay', () => {
    let now = 1_000_000;
    const notices = createNoticeBus();
    const recent = new RecentRequests(notices, () => now);
    recent.add({
      transport: 'http',
      request: 'POST /api/actions/show_scoreboard',
      status: 200,
      address: '::1',
    });
    for (let i = 0; i < 5_000; i++) {
      now += 1;
      recent.add(wrongToken);
      // A request of another sender in between does not end the run.
      if (i === 2_500)
        recent.add({ transport: 'ws', request: 'trigger toggle_veto', status: 200, address: '::1' });
    }
    const list = recent.list();
    expect(list.map((record) => record.request)).toEqual([
      'trigger toggle_veto',
      'POST /gsi',
      'POST /api/actions/show_scoreboard',
    ]);
    expect(list[1]).toMatchObject({ count: 5_000, time: new Date(now).toISOString() });
    // Another message, another sender or a pause beyond the window: a new entry.
    recent.add({ ...wrongToken, address: '10.0.0.8' });
    now += REPEAT_WINDOW_MS + 1;
    recent.add(wrongToken);
    expect(
      recent
        .list()
        .slice(0, 2)
        .map((record) => [record.address, record.count]),
    ).toEqual([
      ['10.0.0.7', undefined],
      ['10.0.0.8', undefined],
    ]);
  });

  it('is sent to a live list again at most once a second, under the same id', () => {
    let now = 0;
    const notices = createNoticeBus();
    const recent = new RecentRequests(notices, () => now);
    const sent: Array<[number, number | undefined]> = [];
    notices.on('request.recorded', ({ record }) => sent.push([record.id, record.count]));
    for (let i = 0; i < 3_000; i++) {
      now += 1;
      recent.add(wrongToken);
    }
    expect(new Set(sent.map(([id]) => id)).size).toBe(1);
    expect(sent.length).toBeLessThanOrEqual(4);
  });

  it('a flood of frames without the token over HTTP is one counted line', async () => {
    const server = await build();
    await command(server, 'show_scoreboard');
    const frame = { provider: { name: 'Counter-Strike 2' }, auth: { token: 'not-the-token' } };
    for (let i = 0; i < 200; i++) {
      const answer = await fetch(`${server.applicationUrl}/gsi`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(frame),
      });
      expect(answer.status).toBe(401);
    }
    const { requests } = (await (await fetch(`${server.httpUrl}/internal/requests`)).json()) as {
      requests: Array<{ request: string; count?: number }>;
    };
    const frames = requests.filter((record) => record.request === 'POST /gsi');
    expect(frames).toHaveLength(1);
    expect(frames[0]?.count).toBe(200);
    expect(requests.some((record) => record.request === 'POST /api/actions/show_scoreboard')).toBe(true);
  });
});

describe('the list publishes what each answer said', () => {
  it('HTTP, WebSocket and unroutable failures are listed with their message; successes without one', async () => {
    const server = await build();
    const cookie = await signIn(server);
    const operator = await connect(`${server.applicationUrl.replace('http', 'ws')}/ws?role=operator`, {
      headers: { cookie },
    });
    await operator.next(); // hello

    const http = await command(server, 'set_event_name', { name: 'x'.repeat(500) });
    expect(http.status).toBe(400);
    const program = await connect(server.wsUrl);
    await program.next(); // hello
    program.send({ type: 'trigger', id: 1, action: 'no_such_command' });
    const ws = await program.waitFor((message) => message.type === 'result');
    expect(ws).toMatchObject({ ok: false, status: 404, error: 'unknown_action' });
    const unroutable = await rawRequest(
      server.port,
      `GET /% HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(unroutable.status).toBe(400);
    expect((await command(server, 'toggle_scoreboard')).status).toBe(200);

    // The live feed of the operator app carries the message with the record.
    const live = await operator.waitFor(
      (message) =>
        message.event === 'panel.request' && message.data.record.request === 'trigger no_such_command',
    );
    expect(live.data.record).toMatchObject({ status: 404, error: 'unknown_action', message: ws.message });

    const response = await fetch(`${server.applicationUrl}/api/panel/requests`, { headers: { cookie } });
    const { requests } = (await response.json()) as { requests: Array<Record<string, unknown>> };
    const find = (request: string) => requests.find((record) => record.request === request);
    expect(find('POST /api/actions/set_event_name')).toMatchObject({
      status: 400,
      error: 'invalid_payload',
      message: http.body.message,
    });
    expect(find('trigger no_such_command')).toMatchObject({
      transport: 'ws',
      error: 'unknown_action',
      message: ws.message,
    });
    expect(find('GET /%')).toMatchObject({
      status: 400,
      error: 'bad_request',
      message: unroutable.json.message,
    });
    const ok = find('POST /api/actions/toggle_scoreboard');
    expect(ok).toMatchObject({ status: 200 });
    expect(ok).not.toHaveProperty('message');
    program.close();
    operator.close();
  });
});

describe('the list tells everyone who shows it live', () => {
  it('every listener hears each record, and one that left hears none (no single slot: the last writer does not win)', () => {
    const notices = createNoticeBus();
    const recent = new RecentRequests(notices, () => 1);
    const first: string[] = [];
    const second: string[] = [];
    const onFirst = ({ record }: { record: { request: string } }) => first.push(record.request);
    notices.on('request.recorded', onFirst);
    notices.on('request.recorded', ({ record }) => second.push(record.request));
    recent.add({ transport: 'http', request: 'GET /a', status: 200, address: '127.0.0.1' });
    notices.off('request.recorded', onFirst);
    recent.add({ transport: 'http', request: 'GET /b', status: 200, address: '127.0.0.1' });
    expect(first).toEqual(['GET /a']);
    expect(second).toEqual(['GET /a', 'GET /b']);
  });
});
