import { execFileSync, spawnSync } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ipaddr from 'ipaddr.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { RateLimit, type RateLimitedError } from '../../src/access/rate-limit.ts';
import { canonicalAddress, classifyAddress } from '../../src/net/address-class.ts';
import { createTestNetwork, netnsSkipReason, runInNamespace, type TestNetwork } from '../helpers/netns.ts';

const skip = netnsSkipReason();

/**
 * A stand-in for the service: tells each peer the address it came from, and applies the real rate
 * limit under /limited, so the harness is proven against what the access tests of the app will need.
 */
async function startEchoServer() {
  let limit = new RateLimit();
  const readBody = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const server: Server = createServer(async (request, response) => {
    const remoteAddress = request.socket.remoteAddress;
    if (request.url === '/silent') return; // never answers
    try {
      if (request.url?.startsWith('/limited')) await limit.consume(remoteAddress);
    } catch (error) {
      const refusal = error as RateLimitedError;
      response.writeHead(refusal.status, { 'retry-after': String(refusal.retryAfterSeconds) });
      response.end(JSON.stringify(refusal.toBody()));
      return;
    }
    const body = await readBody(request);
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({
        remoteAddress,
        method: request.method,
        url: request.url,
        headers: request.headers,
        body,
      }),
    );
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    if (request.url?.startsWith('/refuse')) {
      const body = JSON.stringify({ ok: false, error: 'forbidden', message: 'refused before the upgrade' });
      socket.end(
        `HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      ws.send(JSON.stringify({ hello: request.socket.remoteAddress, url: request.url }));
      ws.on('message', (data) => {
        const text = data.toString();
        if (text === 'close-4401') ws.close(4401, 'unauthorized');
        else ws.send(JSON.stringify({ echo: JSON.parse(text) }));
      });
    });
  });
  // Dual-stack, all interfaces: as the service will listen.
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    resetRateLimit: () => {
      limit = new RateLimit();
    },
    close: async () => {
      for (const client of wss.clients) client.terminate();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.skipIf(skip)(`network namespace harness${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let net: TestNetwork;
  let server: Awaited<ReturnType<typeof startEchoServer>>;

  beforeAll(async () => {
    [net, server] = await Promise.all([createTestNetwork(), startEchoServer()]);
  });
  afterAll(async () => {
    await net?.close();
    await server?.close();
  });

  it.each(['lan', 'lan6', 'linkLocal', 'outside', 'outside6'] as const)(
    'a request from %s arrives from its own address',
    async (name) => {
      const host = net[name];
      const answer = await net.http(name, { port: server.port, path: '/who?x=1' });
      expect(answer.error).toBeNull();
      expect(answer.status).toBe(200);
      const { remoteAddress } = answer.json as { remoteAddress: string };
      expect(canonicalAddress(remoteAddress)).toBe(host.address);
      expect(classifyAddress(remoteAddress)).toBe(host.expectedClass);
      if (host.family === 4) expect(remoteAddress).toBe(`::ffff:${host.address}`);
    },
  );

  it('the addresses are the documented ones', () => {
    expect(net.lan.address).toBe(`10.231.0.${net.slot * 4 + 2}`);
    expect(net.lan.serverAddress).toBe(`10.231.0.${net.slot * 4 + 1}`);
    expect(net.outside.address).toBe(`198.51.100.${net.slot * 4 + 2}`);
    const canonical = (text: string) => ipaddr.IPv6.parse(text).toRFC5952String();
    expect(net.lan6.address).toBe(canonical(`fd00:231:0:${net.slot.toString(16)}::2`));
    expect(net.outside6.address).toBe(canonical(`2001:db8:231:${net.slot.toString(16)}::2`));
    expect(net.linkLocal.address).toBe('fe80::2');
  });

  it('a link-local peer carries the zone id of the server side interface', async () => {
    const answer = await net.http('linkLocal', { port: server.port });
    expect((answer.json as { remoteAddress: string }).remoteAddress).toBe(
      `fe80::2%${net.linkLocal.rootInterface}`,
    );
  });

  it('sends method, headers and a JSON body; Host names the server address, no Origin', async () => {
    const answer = await net.http('lan', {
      port: server.port,
      path: '/api/actions/show_scoreboard',
      headers: { 'x-service-token': 'abc' },
      body: { slot: 3 },
    });
    expect(answer.json).toMatchObject({
      method: 'POST',
      url: '/api/actions/show_scoreboard',
      body: '{"slot":3}',
      headers: {
        host: `${net.lan.serverAddress}:${server.port}`,
        'content-type': 'application/json',
        'x-service-token': 'abc',
      },
    });
    expect((answer.json as { headers: object }).headers).not.toHaveProperty('origin');

    const six = await net.http('lan6', { port: server.port, headers: { host: 'rebind.example:44555' } });
    expect(six.json).toMatchObject({ headers: { host: 'rebind.example:44555' } });
    const linkLocal = await net.http('linkLocal', { port: server.port });
    expect(linkLocal.json).toMatchObject({ headers: { host: `[fe80::1]:${server.port}` } });
  });

  it('reports no answer as an error, not as a status', async () => {
    const refused = await net.http('lan', { port: 1, timeoutMs: 1000 });
    expect(refused).toMatchObject({ status: null, error: { code: 'ECONNREFUSED' } });
    const silent = await net.http('lan', { port: server.port, path: '/silent', timeoutMs: 300 });
    expect(silent).toMatchObject({ status: null, error: { code: 'ETIMEDOUT' } });
  });

  it('a WebSocket session: open, messages both ways, a close code from the server', async () => {
    const session = await net.openWs('lan', { port: server.port, path: '/?token=abc' });
    expect(session.outcome).toBe('open');
    const hello = (await session.nextMessage()) as { hello: string; url: string };
    expect(canonicalAddress(hello.hello)).toBe(net.lan.address);
    expect(hello.url).toBe('/?token=abc');
    session.send({ type: 'trigger', action: 'toggle_scoreboard' });
    expect(await session.nextMessage()).toEqual({ echo: { type: 'trigger', action: 'toggle_scoreboard' } });
    session.send('close-4401');
    expect(await session.waitForClose()).toMatchObject({ code: 4401, reason: 'unauthorized', by: 'server' });
  });

  it('a WebSocket refused before the upgrade gives the HTTP answer', async () => {
    const session = await net.openWs('outside6', { port: server.port, path: '/refuse' });
    expect(session.outcome).toBe('refused');
    expect(session.refusal).toMatchObject({ status: 403, json: { error: 'forbidden' } });
  });

  it('a scripted WebSocket session with waits, from IPv6 link-local', async () => {
    const started = Date.now();
    const result = await net.ws('linkLocal', {
      port: server.port,
      steps: [{ send: { n: 1 } }, { waitMs: 100 }, { send: { n: 2 } }],
      untilMessages: 3,
      durationMs: 3000,
    });
    expect(result.outcome).toBe('open');
    expect(result.messages).toEqual([
      { hello: `fe80::2%${net.linkLocal.rootInterface}`, url: '/' },
      { echo: { n: 1 } },
      { echo: { n: 2 } },
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(result.close).toMatchObject({ code: 1000, by: 'client' });
  });

  it('a burst of 21 requests within a second: the 21st is rate limited', async () => {
    server.resetRateLimit();
    const burst = await net.burst('outside', { port: server.port, path: '/limited', count: 21 });
    expect(burst.elapsedMs).toBeLessThan(1000);
    expect(burst.counts).toEqual({ '200': 20, '429': 1 });
    const limited = burst.responses.find((response) => response.status === 429);
    expect(limited).toMatchObject({ retryAfter: '1', json: { error: 'rate_limited' } });
  });

  it('runInNamespace runs one request in a client of its own', async () => {
    const target = { host: net.lan6.serverAddress, port: server.port };
    const [answer, session] = await Promise.all([
      runInNamespace(net.lan6.namespace, { kind: 'http', target, path: '/one-shot' }),
      runInNamespace(net.lan6.namespace, { kind: 'ws', target, untilMessages: 1, durationMs: 3000 }),
    ]);
    expect(answer.json).toMatchObject({ url: '/one-shot' });
    expect(canonicalAddress((answer.json as { remoteAddress: string }).remoteAddress)).toBe(net.lan6.address);
    expect(session.messages).toEqual([{ hello: net.lan6.address, url: '/' }]);
  });

  it('each client has exactly its planned addresses, so its source address is predictable', () => {
    const addressesIn = (namespace: string) =>
      (
        JSON.parse(
          execFileSync('ip', ['-n', namespace, '-j', 'address', 'show'], { encoding: 'utf8' }),
        ) as Array<{
          ifname: string;
          addr_info: Array<{ local: string }>;
        }>
      )
        .filter((link) => link.ifname !== 'lo')
        .flatMap((link) => link.addr_info.map((info) => info.local));
    expect(addressesIn(net.lan.namespace)).toEqual([net.lan.address]);
    expect(addressesIn(net.lan6.namespace).sort()).toEqual([net.lan6.address, net.linkLocal.address].sort());
    expect(addressesIn(net.outside.namespace)).toEqual([net.outside.address]);
    expect(addressesIn(net.outside6.namespace)).toEqual([net.outside6.address]);
  });

  it('a client namespace can only reach its own link: no default route', () => {
    for (const namespace of net.namespaces) {
      for (const family of ['-4', '-6']) {
        const routes = JSON.parse(
          execFileSync('ip', ['-n', namespace, '-j', family, 'route', 'show'], { encoding: 'utf8' }),
        ) as Array<{ dst: string }>;
        expect(routes.map((route) => route.dst)).not.toContain('default');
      }
    }
  });

  it('a test process that fails before close() leaves nothing behind', () => {
    const helper = new URL('../helpers/netns.ts', import.meta.url).href;
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { createTestNetwork } from '${helper}';
         const net = await createTestNetwork();
         console.log(JSON.stringify([...net.namespaces, ...net.interfaces]));
         await net.http('lan', { port: 1, timeoutMs: 200 });
         throw new Error('a failing test');`,
      ],
      { encoding: 'utf8' },
    );
    expect(child.status).not.toBe(0);
    const names = JSON.parse(child.stdout) as string[];
    expect(names).toHaveLength(8);
    const namespaces = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
    const links = execFileSync('ip', ['-br', 'link', 'show'], { encoding: 'utf8' });
    for (const name of names) {
      expect(`${namespaces}\n${links}`).not.toMatch(new RegExp(`^${name}\\b`, 'm'));
    }
  });

  it('removes what a dead test process left behind', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const taken = new Set(
      (
        JSON.parse(execFileSync('ip', ['-j', 'link', 'show'], { encoding: 'utf8' })) as Array<{
          ifname: string;
        }>
      ).map((link) => link.ifname),
    );
    const slot = Array.from({ length: 64 }, (_, i) => i).find((i) => !taken.has(`hud${i}o6`)) as number;
    const namespace = `hudout6-${dead}-${slot}`;
    execFileSync('ip', ['-batch', '-'], {
      input: [
        `netns add ${namespace}`,
        `link add hud${slot}o6 type veth peer name hud${slot}o6p netns ${namespace}`,
        `link set dev hud${slot}o6 alias hud-automation-test:pid=${dead}`,
        '',
      ].join('\n'),
    });
    const other = await createTestNetwork();
    await other.close();
    expect(execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })).not.toMatch(
      new RegExp(`^${namespace}\\b`, 'm'),
    );
    expect(spawnSync('ip', ['link', 'show', `hud${slot}o6`]).status).not.toBe(0);
  });

  it('two networks side by side get their own slots, and close removes everything', async () => {
    const second = await createTestNetwork();
    try {
      expect(second.slot).not.toBe(net.slot);
      const answer = await second.http('lan', { port: server.port });
      expect(canonicalAddress((answer.json as { remoteAddress: string }).remoteAddress)).toBe(
        second.lan.address,
      );
    } finally {
      await second.close();
    }
    const namespaces = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })
      .split('\n')
      .map((line) => line.split(' ')[0]);
    for (const namespace of second.namespaces) expect(namespaces).not.toContain(namespace);
    const links = JSON.parse(execFileSync('ip', ['-j', 'link', 'show'], { encoding: 'utf8' })) as Array<{
      ifname: string;
    }>;
    for (const name of second.interfaces) expect(links.map((link) => link.ifname)).not.toContain(name);
    await expect(second.http('lan', { port: server.port })).rejects.toThrow(/closed/);
  });
});
