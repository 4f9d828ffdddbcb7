/**
 * Every frame is paid for before it is read (docs/access.md, "Game frames"): a body is parsed only
 * when its text holds the cfg's token; a device's frames refused for the token draw on its request
 * budget, and once it is spent its frames are refused before they are read; the Game status follows
 * accepted frames, and a refusal changes it at most once a second. Over HTTP with the game's headers,
 * from this machine and (in network namespaces) from a device on the local network.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedToken } from '../../src/access/access-token.ts';
import { carriesToken } from '../../src/game/frame-token.ts';
import { REFUSAL_STATUS_EVERY_MS } from '../../src/game/game-data.ts';
import type { GameStatus } from '../../src/protocol/game.ts';
import type { RunningServer } from '../../src/server.ts';
import { build, get } from '../helpers/build.ts';
import type { Frame } from '../helpers/gsi.ts';
import { FAZE_NAVI, fixture, postFrame, toCs2, withToken } from '../helpers/gsi.ts';
import { createTestNetwork, netnsSkipReason, type TestNetwork } from '../helpers/netns.ts';

const TOKEN = 'kX3v9QbT0wZr7Lm2Np5Ys8Ua1Cd4Ef6Gh9Ij0Kl2Mn3';

describe('the token in the raw text', () => {
  it('is found where the game writes it, however the JSON is spaced', () => {
    for (const text of [
      `{"auth":{"token":"${TOKEN}"}}`,
      `{\n\t"auth": {\n\t\t"token": "${TOKEN}"\n\t}\n}`,
      `{"provider":{},"auth" : { "token" :  "${TOKEN}" }}`,
    ]) {
      expect(carriesToken(text, expectedToken(TOKEN)), text).toBe(true);
    }
  });

  it('is not found as a prefix, a value of another key, escaped, or after a few decoy token keys', () => {
    const decoys = Array.from({ length: 4 }, (_, i) => `"token":"${'x'.repeat(TOKEN.length - 1)}${i}"`);
    for (const text of [
      `{"auth":{"token":"${TOKEN.slice(0, -1)}"}}`,
      `{"auth":{"token":"${TOKEN}x"}}`,
      `{"name":"${TOKEN}"}`,
      `{"auth":{"token":"\\u00${TOKEN.charCodeAt(0).toString(16)}${TOKEN.slice(1)}"}}`,
      `{${decoys.join(',')},"auth":{"token":"${TOKEN}"}}`,
      '',
    ]) {
      expect(carriesToken(text, expectedToken(TOKEN)), text).toBe(false);
    }
  });
});

const without = (frame: Frame) => withToken(frame, undefined);
const wrong = (frame: Frame) => withToken(frame, 'not-the-token-of-this-data-directory-at-all');

/** The status messages the pages are sent, as they are sent. */
function statusMessages(server: RunningServer): GameStatus[] {
  const seen: GameStatus[] = [];
  server.service.notices.on('game.message', (message) => {
    if (message.status) seen.push(message.status);
  });
  return seen;
}

describe('a flood of frames without the token, from this machine', () => {
  it('is refused before it is parsed, and a good frame in the middle of it still lands', async () => {
    const server = await build();
    const capture = toCs2(await fixture(FAZE_NAVI));
    const good = withToken(capture, server.service.game.token);
    expect((await postFrame(server.applicationPort, good)).status).toBe(200);
    const before = server.service.game.counters;
    const messages = statusMessages(server);

    // Four clients flood at once (fetch: connections of their own), without a token and with a wrong
    // one, while the game goes on posting on its own connection: its frames land, with a roster that
    // changes in the middle.
    let flooding = true;
    const flooded: number[] = [];
    const body = (frame: Frame) => JSON.stringify(frame);
    const flooder = async (frame: Frame) => {
      const text = body(frame);
      while (flooding) {
        const answer = await fetch(`${server.applicationUrl}/gsi`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: text,
        });
        await answer.arrayBuffer();
        flooded.push(answer.status);
      }
    };
    const floods = [without(capture), wrong(capture), without(capture), wrong(capture)].map(flooder);
    const renamed = structuredClone(good);
    const [steamid] = Object.keys(renamed.allplayers) as [string];
    renamed.allplayers[steamid].name = 'renamed mid-flood';
    const game: number[] = [];
    // At least 20 frames, and on until the flood has had 40 answers: how many land meanwhile is the
    // machine's business, not the test's.
    for (let i = 0; i < 20 || flooded.length < 40; i++)
      game.push((await postFrame(server.applicationPort, i < 10 ? good : renamed)).status);
    flooding = false;
    await Promise.all(floods);

    expect(game.every((status) => status === 200)).toBe(true);
    expect(new Set(flooded)).toEqual(new Set([401]));
    const after = server.service.game.counters;
    // Only the game's frames were parsed; every refused one was refused unread.
    expect(after.parsed - before.parsed).toBe(game.length);
    expect(after.refusedUnread - before.refusedUnread).toBe(flooded.length);
    const roster = (await get(server, '/api/state')).body.state.roster;
    expect(roster.map((entry: { name: string }) => entry.name)).toContain('renamed mid-flood');
    // The status followed the accepted frames: receiving all along, never "wrong token".
    expect(messages.every((status) => status.receiving && status.problem === null)).toBe(true);
    expect(server.service.game.status()).toMatchObject({
      receiving: true,
      problem: null,
      frames: game.length + 1,
    });
  });

  it('while nothing is accepted, the refusal is reported at most once a second, whatever the rate', async () => {
    const server = await build();
    const capture = toCs2(await fixture(FAZE_NAVI));
    const messages = statusMessages(server);
    const started = Date.now();
    let refused = 0;
    // Frames without a token and with a wrong one, in turn: each would say something new.
    while (Date.now() - started < 2.5 * REFUSAL_STATUS_EVERY_MS) {
      const frame = refused % 2 === 0 ? without(capture) : wrong(capture);
      expect((await postFrame(server.applicationPort, frame)).status).toBe(401);
      refused++;
    }
    const elapsed = Date.now() - started;
    expect(refused).toBeGreaterThan(20);
    expect(messages.length).toBeGreaterThanOrEqual(1);
    expect(messages.length).toBeLessThanOrEqual(Math.floor(elapsed / REFUSAL_STATUS_EVERY_MS) + 1);
    expect(messages.every((status) => status.problem === 'wrong_token' && !status.receiving)).toBe(true);
    expect(server.service.game.counters.parsed).toBe(0);
    // The first good frame ends it at once.
    const good = withToken(capture, server.service.game.token);
    expect((await postFrame(server.applicationPort, good)).status).toBe(200);
    expect(messages.at(-1)).toMatchObject({ receiving: true, problem: null });
  });
});

const skipReason = netnsSkipReason();

describe.skipIf(skipReason)(
  `a flood of frames from a device on the local network${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let net: TestNetwork;
    beforeAll(async () => {
      net = await createTestNetwork();
    });
    afterAll(async () => {
      await net?.close();
    });

    it("draws on the device's budget: 20 refused a second, the rest refused unread; the game's frames still land", async () => {
      const server = await build({ overrides: { lanMode: true } });
      const port = server.applicationPort;
      const capture = toCs2(await fixture(FAZE_NAVI));
      const good = withToken(capture, server.service.game.token);
      const burst = await net.burst('lan', {
        port,
        method: 'POST',
        path: '/gsi',
        body: without(capture),
        count: 30,
      });
      expect(burst.elapsedMs, 'the burst must fit in one window').toBeLessThan(1000);
      expect(burst.counts).toEqual({ '401': 20, '429': 10 });
      const limited = burst.responses.find((response) => response.status === 429);
      expect(limited?.json).toMatchObject({ ok: false, error: 'rate_limited' });
      expect(Number(limited?.retryAfter)).toBeGreaterThanOrEqual(1);
      // 21 bodies were looked at (the 21st spent the budget); the other 9 were never read. None parsed.
      expect(server.service.game.counters).toEqual({ parsed: 0, refusedUnread: 21, droppedDuringReplay: 0 });
      // Until the budget comes back, that device's frames are refused unread, even one with the token…
      const blocked = await net.http('lan', { port, method: 'POST', path: '/gsi', body: good });
      expect(blocked.status).toBe(429);
      expect(blocked.headers.connection).toBe('close');
      // …while the game on this machine and an observer PC elsewhere post as usual.
      expect((await postFrame(port, good)).status).toBe(200);
      const other = await net.http('lan6', { port, method: 'POST', path: '/gsi', body: good });
      expect(other.status).toBe(200);
      expect(server.service.game.counters).toEqual({ parsed: 2, refusedUnread: 21, droppedDuringReplay: 0 });
      expect(server.service.game.status()).toMatchObject({ receiving: true, problem: null });
    });
  },
);
