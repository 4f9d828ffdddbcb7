/**
 * The Machines view's routes over real sockets: signed-in only, a chart for every actor drawn from
 * its machine, and the stream: a bo3 veto driven over HTTP arrives as one entry per event with its
 * source and the states after it; nothing is inspected once the last page has gone.
 */
import diagnostics from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import type { StreamedEntry, StreamedMessage } from '../../src/protocol/machines-view-stream.ts';
import type { RunningServer } from '../../src/server.ts';
import { build, ok } from '../helpers/build.ts';
import { type Frame, fixture, postAccepted, ROUND_SEQUENCE, toCs2 } from '../helpers/gsi.ts';
import { panelApi } from '../helpers/hud.ts';
import { BO3_ACTIVE_DUTY } from '../helpers/vetoes.ts';
import { connect } from '../helpers/ws-client.ts';

const requestChannel = diagnostics.tracingChannel('fastify.request.handler');

/** Reads the server-sent events of the stream, one message at a time. */
async function openStream(server: RunningServer, cookie: string, focus?: string) {
  const controller = new AbortController();
  const query = focus === undefined ? '' : `?focus=${focus}`;
  const response = await fetch(`${server.applicationUrl}/api/panel/machines/stream${query}`, {
    headers: { cookie },
    signal: controller.signal,
  });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const next = async (): Promise<StreamedMessage> => {
    for (;;) {
      const end = buffered.indexOf('\n\n');
      if (end >= 0) {
        const frame = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        return JSON.parse(frame.replace(/^data: /, '')) as StreamedMessage;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffered += decoder.decode(value, { stream: true });
    }
  };
  /** Entries until one matches. */
  const until = async (match: (entry: StreamedEntry) => boolean): Promise<StreamedEntry[]> => {
    const seen: StreamedEntry[] = [];
    for (;;) {
      const message = await next();
      if (message.type !== 'entry') continue;
      seen.push(message.entry);
      if (match(message.entry)) return seen;
    }
  };
  return { next, until, close: () => controller.abort() };
}

describe('the Machines view routes', () => {
  it('answers only a signed-in browser', async () => {
    const server = await build();
    for (const path of [
      '/api/panel/machines',
      '/api/panel/machines/chart/vetoSession',
      '/api/panel/machines/stream',
    ]) {
      const response = await fetch(`${server.applicationUrl}${path}`);
      expect(response.status, path).toBe(401);
      expect(await response.json()).toMatchObject({ ok: false, error: 'unauthorized' });
    }
  });

  it('lists the actors veto session first, draws each chart, and refuses an unknown actor in the envelope', async () => {
    const server = await build();
    const { cookie } = await panelApi(server);
    const get = (path: string) =>
      fetch(`${server.applicationUrl}${path}`, { headers: { cookie } }).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as Record<string, any>,
      }));
    const list = await get('/api/panel/machines');
    const actors = (list.body.actors as Array<{ actor: string }>).map((entry) => entry.actor);
    expect(actors.slice(0, 2)).toEqual(['vetoSession', 'observer']);
    // Then the game (when the roster has one) and the match.
    const next = actors.filter((actor) => actor === 'game' || actor === 'match');
    expect(actors.slice(2, 2 + next.length)).toEqual(next);

    const chart = (await get('/api/panel/machines/chart/vetoSession')).body.chart;
    const paths = (chart.states as Array<{ path: string }>).map((state) => state.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '',
        'session',
        'session.none',
        'session.active.inProgress',
        'session.active.complete',
        'import.loading',
      ]),
    );
    expect(chart.edges.length).toBeGreaterThan(0);

    const unknown = await get('/api/panel/machines/chart/nobody');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ ok: false, error: 'not_found' });
    expect(unknown.body.message).toContain('vetoSession');
  });

  it('streams a bo3 veto driven over HTTP, each event with its source and the states after it; stops inspecting when closed', async () => {
    const server = await build();
    const { cookie } = await panelApi(server);
    expect(requestChannel.hasSubscribers).toBe(false);
    const stream = await openStream(server, cookie);
    const hello = await stream.next();
    if (hello.type !== 'hello') throw new Error('the stream starts with hello');
    expect(hello.actors.find((actor) => actor.actor === 'vetoSession')?.active).toContain('session.none');
    expect(requestChannel.hasSubscribers).toBe(true);

    const mapPool = BO3_ACTIVE_DUTY.map((step) => step.map);
    await ok(server, 'veto_start', {
      boFormat: 'bo3',
      teamA: { name: 'Alpha' },
      teamB: { name: 'Bravo' },
      mapPool,
    });
    const started = await stream.until(
      (entry) => entry.actor === 'vetoSession' && entry.event === 'veto.start',
    );
    const start = started.at(-1) as StreamedEntry;
    expect(start).toMatchObject({ source: 'HTTP', changed: true });
    expect(start.active).toContain('session.active.inProgress');
    expect(start.transitions.length).toBeGreaterThan(0);
    expect(start.payload).toMatchObject({ boFormat: 'bo3', teamA: { name: 'Alpha' } });
    // The session tells the match what to show: an event between actors.
    expect(
      started.some(
        (entry) => entry.actor === 'match' && entry.source === 'actor' && entry.from === 'vetoSession',
      ),
    ).toBe(true);

    const picks = BO3_ACTIVE_DUTY.filter((step) => step.type !== 'decider');
    for (const [index, step] of picks.entries()) {
      await ok(server, 'veto_select', { map: step.map });
      const entry = (
        await stream.until((seen) => seen.actor === 'vetoSession' && seen.event === 'veto.select')
      ).at(-1) as StreamedEntry;
      expect(entry.source).toBe('HTTP');
      expect(entry.payload).toEqual({ map: step.map });
      const last = index === picks.length - 1;
      expect(entry.active).toContain(last ? 'session.active.complete' : 'session.active.inProgress');
    }

    stream.close();
    await expect.poll(() => requestChannel.hasSubscribers).toBe(false);
  });

  it('sends every entry of the actor a page shows, thins the game frames of the others and counts what it did not send', async () => {
    const server = await build();
    const { cookie } = await panelApi(server);
    const onGame = await openStream(server, cookie, 'game');
    const onVeto = await openStream(server, cookie, 'vetoSession');
    expect((await onGame.next()).type).toBe('hello');
    expect((await onVeto.next()).type).toBe('hello');

    const first = toCs2((await fixture(ROUND_SEQUENCE))[0] as Frame);
    const FRAMES = 40;
    // Back to back, as the game sends them in a fight (twenty to fifty a second).
    await Promise.all(
      Array.from({ length: FRAMES }, (_, index) =>
        postAccepted(server, { ...first, provider: { ...first.provider, timestamp: 1_700_000_000 + index } }),
      ),
    );
    const gameFrames = (entries: StreamedEntry[]) =>
      entries.filter((entry) => entry.actor === 'game' && entry.event === 'game.frame');
    let all: StreamedEntry[] = [];
    while (gameFrames(all).length < FRAMES)
      all = all.concat(await onGame.until((entry) => entry.actor === 'game'));
    expect(gameFrames(all).every((entry) => entry.source === 'game frame' && entry.unsent === 0)).toBe(true);
    const last = gameFrames(all).at(-1) as StreamedEntry;

    // The page on the veto: the latest frame arrives (when its turn comes), and each entry sent
    // counts the ones before it that were not: nothing is hidden.
    const thinned = gameFrames(await onVeto.until((entry) => entry.seq === last.seq));
    expect(thinned.reduce((sum, entry) => sum + 1 + entry.unsent, 0)).toBe(FRAMES);
    // Forty frames in far less than ten seconds: at most a few a second went out.
    expect(thinned.length).toBeLessThan(FRAMES / 2);

    // A page opening later on the veto gets the kept timeline thinned the same way; on the game, all.
    const lateVeto = await openStream(server, cookie, 'vetoSession');
    const lateHello = await lateVeto.next();
    if (lateHello.type !== 'hello') throw new Error('the stream starts with hello');
    const kept = gameFrames(lateHello.timeline);
    expect(kept.reduce((sum, entry) => sum + 1 + entry.unsent, 0)).toBe(FRAMES);
    expect(kept.at(-1)?.seq).toBe(last.seq);
    const lateGame = await openStream(server, cookie, 'game');
    const fullHello = await lateGame.next();
    if (fullHello.type !== 'hello') throw new Error('the stream starts with hello');
    expect(gameFrames(fullHello.timeline)).toHaveLength(FRAMES);
    for (const stream of [onGame, onVeto, lateVeto, lateGame]) stream.close();
  });

  it('refuses a stream for an unknown actor in the envelope, and watches nothing for it', async () => {
    const server = await build();
    const { cookie } = await panelApi(server);
    const response = await fetch(`${server.applicationUrl}/api/panel/machines/stream?focus=nobody`, {
      headers: { cookie },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ ok: false, error: 'not_found' });
    expect(requestChannel.hasSubscribers).toBe(false);
  });

  it("names the source of a WebSocket program's command on the automation server", async () => {
    const server = await build();
    const { cookie } = await panelApi(server);
    const stream = await openStream(server, cookie, 'vetoSession');
    expect((await stream.next()).type).toBe('hello');
    const program = await connect(server.wsUrl);
    await program.next(); // hello
    program.send({
      type: 'trigger',
      id: 'ws-start',
      action: 'veto_start',
      payload: {
        boFormat: 'bo3',
        teamA: { name: 'Alpha' },
        teamB: { name: 'Bravo' },
        mapPool: BO3_ACTIVE_DUTY.map((step) => step.map),
      },
    });
    const start = (
      await stream.until((entry) => entry.actor === 'vetoSession' && entry.event === 'veto.start')
    ).at(-1) as StreamedEntry;
    expect(start).toMatchObject({ source: 'WebSocket', changed: true, unsent: 0 });
    program.close();
    stream.close();
  });

  it('shows the context on demand with secrets redacted', async () => {
    const server = await build({ overrides: { obs: { enabled: false, password: 'hunter2-secret' } } });
    const { cookie } = await panelApi(server);
    const response = await fetch(`${server.applicationUrl}/api/panel/machines/context/obs`, {
      headers: { cookie },
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).not.toContain('hunter2-secret');
    expect(text).toContain('[redacted]');
  });
});
