import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type Actor, assign, createActor, setup } from 'xstate';
import { type RunningInspector, startInspector, viewerPath } from '../src/inspector.ts';

/** The parts of a Stately inspection message the assertions read. */
type Message = {
  type: string;
  sessionId?: string;
  event?: { type?: string; map?: string; password?: unknown };
  snapshot?: Record<string, unknown>;
};

const vetoMachine = setup({
  types: {
    context: {} as { banned: string[]; password: string },
    // `password` stands for the OBS settings that travel in events.
    events: {} as { type: 'veto.ban'; map: string; password?: string },
  },
}).createMachine({
  id: 'veto',
  context: { banned: [], password: 'hunter2' },
  initial: 'banning',
  states: {
    banning: {
      on: {
        'veto.ban': {
          target: 'banned',
          actions: assign({ banned: ({ context, event }) => [...context.banned, event.map] }),
        },
      },
    },
    banned: { on: { 'veto.ban': 'banning' } },
  },
});

/** A viewer as the bridge page is one: same origin as the page, on the viewer path. */
class Viewer {
  readonly messages: Message[] = [];
  private readonly waiters = new Set<() => void>();
  readonly socket: WebSocket;

  constructor(pageUrl: string) {
    const origin = new URL(pageUrl).origin;
    this.socket = new WebSocket(new URL(viewerPath, pageUrl.replace(/^http/, 'ws')), { origin });
    this.socket.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()) as Message);
      for (const wake of this.waiters) wake();
    });
  }

  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
    });
  }

  /** Resolves with the first message (already received or still to come) that matches. */
  next(matches: (message: Message) => boolean): Promise<Message> {
    return new Promise((resolve) => {
      const check = () => {
        const found = this.messages.find(matches);
        if (found === undefined) return false;
        this.waiters.delete(wake);
        resolve(found);
        return true;
      };
      const wake = () => void check();
      if (!check()) this.waiters.add(wake);
    });
  }

  close(): void {
    this.socket.terminate();
  }
}

const isEvent = (type: string) => (message: Message) =>
  message.type === '@xstate.event' && message.event?.type === type;
const isSnapshotAfter = (type: string) => (message: Message) =>
  message.type === '@xstate.snapshot' && message.event?.type === type;

function refused(url: URL | string, origin?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, origin === undefined ? {} : { origin });
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.on('open', () => reject(new Error('connection was accepted')));
    socket.on('error', () => {});
  });
}

function listenOn(port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

describe('startInspector', () => {
  let inspector: RunningInspector | undefined;
  const cleanups: Array<() => void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) cleanup();
    await inspector?.close();
    inspector = undefined;
  });

  function watched(): Actor<typeof vetoMachine> {
    if (!inspector) throw new Error('start the inspector first');
    const actor = createActor(vetoMachine, { inspect: inspector.inspect }).start();
    cleanups.push(() => actor.stop());
    return actor;
  }

  function viewer(): Viewer {
    if (!inspector) throw new Error('start the inspector first');
    const connected = new Viewer(inspector.url);
    cleanups.push(() => connected.close());
    return connected;
  }

  it('relays the events an actor receives to a viewer, and frees the port on close', async () => {
    inspector = await startInspector({ port: 0 });
    const { port, hostname } = new URL(inspector.url);
    expect(hostname).toBe('127.0.0.1');

    const watching = viewer();
    await watching.opened();
    const actor = watched();
    actor.send({ type: 'veto.ban', map: 'de_nuke' });

    const event = await watching.next(isEvent('veto.ban'));
    expect(event.event).toMatchObject({ type: 'veto.ban', map: 'de_nuke' });
    const snapshot = await watching.next(isSnapshotAfter('veto.ban'));
    expect(snapshot.snapshot).toMatchObject({ value: 'banned', context: { banned: ['de_nuke'] } });
    const registration = await watching.next((message) => message.type === '@xstate.actor');
    expect(registration).toMatchObject({ name: 'veto' });

    await inspector.close();
    inspector = undefined;
    const server = await listenOn(Number(port), '127.0.0.1');
    await new Promise((resolve) => server.close(resolve));
  });

  it('gives a viewer that connects late every machine and its current state', async () => {
    inspector = await startInspector({ port: 0 });
    const veto = watched();
    veto.send({ type: 'veto.ban', map: 'de_nuke' });
    // A chatty actor sends more events than the replay window holds, pushing the veto's
    // registration and last snapshot out of a plain "last N" buffer.
    const chatty = watched();
    for (let i = 0; i < 700; i++) chatty.send({ type: 'veto.ban', map: `map${i}` });
    const live = viewer();
    await live.next((message) => message.type === '@xstate.snapshot' && message.event?.map === 'map699');
    live.close();

    const late = viewer();
    await late.next((message) => message.type === '@xstate.snapshot' && message.event?.map === 'map699');
    const registrations = late.messages.filter((message) => message.type === '@xstate.actor');
    expect(registrations.map((message) => message.sessionId)).toEqual([veto.sessionId, chatty.sessionId]);
    expect(late.messages.slice(0, 2)).toEqual(registrations);
    const vetoNow = late.messages.findLast(
      (message) => message.type === '@xstate.snapshot' && message.sessionId === veto.sessionId,
    );
    expect(vetoNow?.snapshot).toMatchObject({ value: 'banned', context: { banned: ['de_nuke'] } });
    expect(late.messages.length).toBeLessThan(700);
  });

  it('redacts passwords in events and contexts', async () => {
    inspector = await startInspector({ port: 0 });
    const watching = viewer();
    const actor = watched();
    actor.send({ type: 'veto.ban', map: 'de_inferno', password: 'swordfish' });

    const event = await watching.next(isEvent('veto.ban'));
    expect(event.event).toMatchObject({ map: 'de_inferno', password: '[redacted]' });
    const snapshot = await watching.next(isSnapshotAfter('veto.ban'));
    expect(snapshot.snapshot?.context).toMatchObject({ password: '[redacted]' });
    expect(JSON.stringify(watching.messages)).not.toMatch(/hunter2|swordfish/);
  });

  it('refuses pages from other sites and publishers without the token', async () => {
    inspector = await startInspector({ port: 0 });
    const ws = inspector.url.replace(/^http/, 'ws');
    expect(await refused(new URL(viewerPath, ws), 'https://evil.example')).toBe(403);
    expect(await refused(new URL('/source', ws))).toBe(403);
    expect(await refused(new URL('/source?token=guess', ws))).toBe(403);

    const page = await fetch(inspector.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<iframe id="inspector" src="https://stately.ai/inspect">');
    const { port } = new URL(inspector.url);
    const rebound = await new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/', headers: { host: `evil.example:${port}` } }, (response) =>
        resolve(response.statusCode ?? 0),
      )
        .on('error', reject)
        .end();
    });
    expect(rebound).toBe(403);
  });

  const lanAddress = Object.values(networkInterfaces())
    .flat()
    .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;

  it.skipIf(lanAddress === undefined)('is not reachable on other interfaces', async () => {
    inspector = await startInspector({ port: 0 });
    const { port } = new URL(inspector.url);
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => {
      const socket = new WebSocket(`ws://${lanAddress}:${port}${viewerPath}`);
      socket.on('error', resolve);
    });
    expect(error.code).toBe('ECONNREFUSED');
  });

  it('reports a port that is taken', async () => {
    const taken = await listenOn(0, '127.0.0.1');
    cleanups.push(() => taken.close());
    const port = (taken.address() as { port: number }).port;
    await expect(startInspector({ port })).rejects.toThrow(
      `inspector port ${port} on 127.0.0.1 is already in use`,
    );
  });

  // The Stately client reconnects forever and keeps Node alive once its socket has errored;
  // a service stopped with Ctrl+C must still exit.
  it.each([
    ['after relaying events', true],
    ['when closed right after starting', false],
  ])('lets Node exit %s', async (_name, sendEvents) => {
    const inspectorModule = fileURLToPath(new URL('../src/inspector.ts', import.meta.url));
    const script = `
      import { createActor, createMachine } from 'xstate';
      import { startInspector } from ${JSON.stringify(inspectorModule)};
      const inspector = await startInspector({ port: 0 });
      if (${sendEvents}) {
        const actor = createActor(createMachine({ initial: 'a', states: { a: { on: { go: 'b' } }, b: {} } }), {
          inspect: inspector.inspect,
        }).start();
        actor.send({ type: 'go' });
        actor.stop();
      }
      await inspector.close();
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    // Without the fix the child never exits; kill it well before the test timeout.
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await new Promise<number | null>((resolve) =>
      child.on('exit', (exitCode) => resolve(exitCode)),
    );
    clearTimeout(killer);
    expect(code, stderr).toBe(0);
  });
});
