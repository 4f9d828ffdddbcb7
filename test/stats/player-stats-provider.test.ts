/**
 * show_player_stats with provider platform_a, end to end: the real server asks a stand-in FACEIT
 * Data API (a real HTTP server built from the documented answers, test/helpers/faceit-stand-in.ts)
 * for the player the game data has in the slot, over HTTP and the WebSocket. Every failure of the
 * platform is a refusal in the envelope that changes nothing; nothing waits beyond the lookup's
 * deadline; answers are kept per match. The key goes only to open.faceit.com or the host the operator
 * confirmed (issue 37): the stand-in's host is confirmed as an operator would.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { STATS_LOOKUP_TIMEOUT_MS } from '../../src/stats/player-stats-lookup.ts';
import { type BuildOptions, build, command, get, tempDir } from '../helpers/build.ts';
import { post, startCli } from '../helpers/cli-process.ts';
import {
  CAPTURED,
  CAPTURED_FIGURES,
  FACEIT_PLAYER,
  type FaceitStandIn,
  STAND_IN_KEY,
  startFaceitStandIn,
} from '../helpers/faceit-stand-in.ts';
import { FAZE_NAVI, fixture, postFrame, toCs2, withToken } from '../helpers/gsi.ts';
import { TEAMS } from '../helpers/hud.ts';
import { LIVE_PLAYERS, postLiveGame } from '../helpers/live-game.ts';
import { connect } from '../helpers/ws-client.ts';

const { s1mple, ropz, rain, Twistzz, broky, b1t } = LIVE_PLAYERS;

/** The stand-in as the settings name it, its host confirmed for the key as an operator would. */
const confirmed = (standIn: FaceitStandIn) => ({
  faceitDataApiUrl: standIn.dataApiUrl,
  faceitKeyHost: new URL(standIn.dataApiUrl).host,
});

/** A server that asks the stand-in, with the game data of a live match and its teams set. */
async function liveServer(standIn: FaceitStandIn, options: BuildOptions = {}): Promise<RunningServer> {
  const server = await build({
    faceitApiKey: STAND_IN_KEY,
    overrides: { sources: confirmed(standIn) },
    ...options,
  });
  expect((await command(server, 'set_teams', TEAMS)).status).toBe(200);
  await postLiveGame(server);
  return server;
}

async function refused(server: RunningServer, payload: object, status: number, error: string) {
  const before = (await get(server, '/api/state')).body.state;
  const answer = await command(server, 'show_player_stats', payload);
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body).toEqual({ ok: false, error, message: expect.any(String) });
  // Nothing changed: no revision, the panel as it was.
  expect((await get(server, '/api/state')).body.state).toEqual(before);
  return answer.body.message as string;
}

describe('player stats from FACEIT (platform_a)', () => {
  it('looks the player of the slot up by SteamID64 and shows his FACEIT figures', async () => {
    const standIn = await startFaceitStandIn({ [s1mple.steamid]: CAPTURED });
    const server = await liveServer(standIn);
    const socket = await connect(server.wsUrl);
    await socket.waitFor((message) => message.type === 'hello');

    const shown = await command(server, 'show_player_stats', { slot: s1mple.slot, provider: 'platform_a' });
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    expect(shown.body.state).toMatchObject({ statsVisible: true });
    expect(shown.body.result).toEqual({ platform: CAPTURED_FIGURES });

    // The documented requests: the lookup by SteamID64 for CS2, then the lifetime stats, with the key.
    const [lookup] = standIn.requests;
    const stats = standIn.requests.find((request) => request.path.endsWith('/stats/cs2'));
    expect(lookup?.path).toBe(`/data/v4/players?game=cs2&game_player_id=${s1mple.steamid}`);
    expect(stats?.path).toBe(`/data/v4/players/${FACEIT_PLAYER.player_id}-${s1mple.steamid}/stats/cs2`);
    for (const request of [lookup, stats]) {
      expect(request?.headers.authorization).toBe(`Bearer ${STAND_IN_KEY}`);
      expect(request?.headers.accept).toBe('application/json');
    }

    // The overlay hears the figures with the player.
    const event = await socket.waitFor(
      (message) => message.type === 'event' && message.event === 'stats.player' && message.data.player,
    );
    expect(event.data.player).toEqual({
      slot: s1mple.slot,
      provider: 'platform_a',
      platform: CAPTURED_FIGURES,
    });

    // The rest of the game's players are looked up in the background: ten lookups in all.
    await standIn.lookups(10);
    for (const { steamid } of Object.values(LIVE_PLAYERS)) expect(standIn.lookupsOf(steamid)).toBe(1);

    // Kept for the match: the same player again, and a player FACEIT does not know, ask nothing more.
    const again = await command(server, 'show_player_stats', {
      slot: s1mple.slot,
      provider: 'platform_a',
      durationMs: 60_000,
    });
    expect(again.body.result).toEqual({ platform: CAPTURED_FIGURES });
    const message = await refused(server, { slot: ropz.slot, provider: 'platform_a' }, 409, 'conflict');
    expect(message).toBe(
      `ropz (SteamID64 ${ropz.steamid}) has no FACEIT CS2 account: show the live stats instead`,
    );
    expect(standIn.lookupsOf(s1mple.steamid)).toBe(1);
    expect(standIn.lookupsOf(ropz.steamid)).toBe(1);

    // Another match (other teams): the figures are asked again.
    await command(server, 'set_teams', { teamA: { name: 'Team Spirit' }, teamB: { name: 'MOUZ' } });
    expect(
      (await command(server, 'show_player_stats', { slot: s1mple.slot, provider: 'platform_a' })).status,
    ).toBe(200);
    expect(standIn.lookupsOf(s1mple.steamid)).toBe(2);
  });

  it('shows level and Elo alone for a player with no CS2 matches on FACEIT yet', async () => {
    const standIn = await startFaceitStandIn({
      [broky.steamid]: { kind: 'player', player: FACEIT_PLAYER, stats: 'missing' },
    });
    const server = await liveServer(standIn);
    const shown = await command(server, 'show_player_stats', { slot: broky.slot, provider: 'platform_a' });
    expect(shown.body.result.platform).toEqual({
      nickname: 'donk666',
      level: 10,
      elo: 4627,
      kd: null,
      winRate: null,
      matches: null,
      headshots: null,
      adr: null,
      recent: [],
    });
  });

  it("refuses what FACEIT cannot give in the envelope, changing nothing, within the lookup's deadline", async () => {
    const standIn = await startFaceitStandIn({
      [s1mple.steamid]: { kind: 'hang' },
      [ropz.steamid]: { kind: 'status', status: 500 },
      [rain.steamid]: { kind: 'not-json' },
      [Twistzz.steamid]: { kind: 'huge' },
      [b1t.steamid]: { kind: 'status', status: 429 },
      [broky.steamid]: CAPTURED,
    });
    const timeoutMs = 400;
    const server = await liveServer(standIn, { statsTimeoutMs: timeoutMs });
    // The panel shows one player: a refused command leaves it as it is.
    expect(
      (await command(server, 'show_player_stats', { slot: broky.slot, provider: 'platform_a' })).status,
    ).toBe(200);

    const started = Date.now();
    expect(
      await refused(server, { slot: s1mple.slot, provider: 'platform_a' }, 504, 'upstream_timeout'),
    ).toBe('FACEIT did not answer the player lookup within 0.4 s');
    expect(Date.now() - started).toBeLessThan(timeoutMs + 2_000);
    expect(timeoutMs).toBeLessThan(STATS_LOOKUP_TIMEOUT_MS);
    // A time-out is not kept: the next command asks again. (How many lookups came before depends on
    // whether the background lookup of broky's command had timed out when this one came.)
    const asked = standIn.lookupsOf(s1mple.steamid);
    await refused(server, { slot: s1mple.slot, provider: 'platform_a' }, 504, 'upstream_timeout');
    expect(standIn.lookupsOf(s1mple.steamid)).toBe(asked + 1);

    expect(await refused(server, { slot: ropz.slot, provider: 'platform_a' }, 502, 'upstream_error')).toBe(
      'FACEIT answered 500 Internal Server Error to the player lookup',
    );
    expect(await refused(server, { slot: rain.slot, provider: 'platform_a' }, 502, 'upstream_error')).toBe(
      'FACEIT answered the player lookup with something that is not JSON (text/html)',
    );
    expect(await refused(server, { slot: Twistzz.slot, provider: 'platform_a' }, 502, 'upstream_error')).toBe(
      'FACEIT answered the player lookup with more than 1024 KiB',
    );
    expect(
      await refused(server, { slot: b1t.slot, provider: 'platform_a' }, 502, 'upstream_error'),
    ).toContain('too many requests');

    // The same refusal over the WebSocket: the envelope with the status beside it.
    const socket = await connect(server.wsUrl);
    await socket.waitFor((message) => message.type === 'hello');
    socket.send({
      type: 'trigger',
      id: 'faceit',
      action: 'show_player_stats',
      payload: { slot: ropz.slot, provider: 'platform_a' },
    });
    expect(await socket.waitFor((message) => message.type === 'result' && message.id === 'faceit')).toEqual({
      type: 'result',
      id: 'faceit',
      action: 'show_player_stats',
      ok: false,
      status: 502,
      error: 'upstream_error',
      message: 'FACEIT answered 500 Internal Server Error to the player lookup',
    });
    expect((await get(server, '/api/state')).body.state.statsVisible).toBe(true);
  });

  it('says what to do when the key is missing or refused, and that platform_b is not available', async () => {
    const standIn = await startFaceitStandIn({ [s1mple.steamid]: CAPTURED });

    const wrongKey = await liveServer(standIn, { faceitApiKey: 'not-the-key' });
    expect(await refused(wrongKey, { slot: s1mple.slot, provider: 'platform_a' }, 503, 'unavailable')).toBe(
      'FACEIT refused the API key (401 Unauthorized to the player lookup): check FACEIT_API_KEY, a server-side key of the FACEIT developer portal',
    );
    // A refused key is not kept: fixed, the next command would ask again.
    await refused(wrongKey, { slot: s1mple.slot, provider: 'platform_a' }, 503, 'unavailable');
    expect(standIn.lookupsOf(s1mple.steamid)).toBeGreaterThanOrEqual(2);

    const asked = standIn.requests.length;
    const noKey = await build({ overrides: { sources: { faceitDataApiUrl: standIn.dataApiUrl } } });
    await postLiveGame(noKey);
    expect(await refused(noKey, { slot: s1mple.slot, provider: 'platform_a' }, 503, 'unavailable')).toContain(
      'FACEIT_API_KEY',
    );
    expect(await refused(noKey, { slot: s1mple.slot, provider: 'platform_b' }, 503, 'unavailable')).toContain(
      'platform_b (HLTV) player stats are not available',
    );
    expect(standIn.requests.length).toBe(asked);
  });

  it("reads the Data API's base, key and confirmed host from the environment (HUD_FACEIT_DATA_API_URL, FACEIT_API_KEY, HUD_FACEIT_KEY_HOST)", async () => {
    const standIn = await startFaceitStandIn({ [s1mple.steamid]: CAPTURED });
    const dataDir = await tempDir();
    const cli = await startCli(['--headless', '--no-obs', '--data-dir', dataDir, '--log-level', 'warn'], {
      FACEIT_API_KEY: STAND_IN_KEY,
      HUD_FACEIT_DATA_API_URL: standIn.dataApiUrl,
      HUD_FACEIT_KEY_HOST: new URL(standIn.dataApiUrl).host,
    });
    try {
      const app = new URL((await cli.waitForOutput(/Operator app\s+(\S+)/))[1] ?? '');
      const token = (await readFile(join(dataDir, 'gsi-token'), 'utf8')).trim();
      const frame = withToken(toCs2(await fixture(FAZE_NAVI)), token);
      expect((await postFrame(Number(app.port), frame)).status).toBe(200);
      const shown = await post(cli.httpUrl, 'show_player_stats', {
        slot: s1mple.slot,
        provider: 'platform_a',
      });
      expect(shown.body.result).toEqual({ platform: CAPTURED_FIGURES });
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });
});

/** A non-loopback IPv4 address of this machine, if it has one: another machine's place in an address. */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address?.family === 'IPv4' && !address.internal)?.address;

/** Any HTTP server on every interface that counts the requests carrying the stand-in's key. */
async function keyCounter(): Promise<{ port: number; withKey: () => number }> {
  let withKey = 0;
  const server = createServer((request, response) => {
    if (request.headers.authorization === `Bearer ${STAND_IN_KEY}`) withKey++;
    response.writeHead(404, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, withKey: () => withKey };
}

/** Changes the saved settings as the panel does (POST /internal/settings on this machine). */
async function setSources(server: RunningServer, sources: Record<string, string>) {
  const response = await fetch(`${server.httpUrl}/internal/settings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sources }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('where FACEIT_API_KEY may be sent (issue 37)', () => {
  const withKey = (standIn: FaceitStandIn) =>
    standIn.requests.filter((request) => request.headers.authorization === `Bearer ${STAND_IN_KEY}`).length;

  it('to a base on another host only once the operator confirms that host; the lookup says why', async () => {
    const standIn = await startFaceitStandIn(
      Object.fromEntries(Object.values(LIVE_PLAYERS).map(({ steamid }) => [steamid, CAPTURED])),
    );
    const host = new URL(standIn.dataApiUrl).host;
    // The base points at the stand-in; no host is confirmed.
    const server = await liveServer(standIn, {
      overrides: { sources: { faceitDataApiUrl: standIn.dataApiUrl } },
    });
    const message = await refused(server, { slot: s1mple.slot, provider: 'platform_a' }, 503, 'unavailable');
    expect(message).toBe(
      `platform_a (FACEIT) stats are not looked up: FACEIT_API_KEY is only sent to https://open.faceit.com or a host the operator confirmed, and http://${host} is not confirmed: if that host is yours, set the setting sources.faceitKeyHost (POST /internal/settings, POST /api/panel/settings) or HUD_FACEIT_KEY_HOST to "${host}"`,
    );
    // Not the asked player, and none of the others in the background: nothing was sent at all.
    expect(standIn.requests).toEqual([]);

    // A confirmation that names no host is refused and changes nothing.
    for (const faceitKeyHost of [`http://${host}/`, 'user@host', 'a b']) {
      const answer = await setSources(server, { faceitKeyHost });
      expect(answer.status, faceitKeyHost).toBe(400);
      expect(answer.body).toMatchObject({ ok: false, error: 'invalid_payload' });
    }
    expect((await setSources(server, { faceitDataApiUrl: 'ftp://mirror.example/data/v4' })).status).toBe(400);
    expect(server.service.settings.current().sources.faceitKeyHost).toBeUndefined();

    // The operator confirms the stand-in's host: the key goes there, the asked player and the rest.
    expect((await setSources(server, { faceitKeyHost: host })).status).toBe(200);
    const shown = await command(server, 'show_player_stats', { slot: s1mple.slot, provider: 'platform_a' });
    expect(shown.body.result).toEqual({ platform: CAPTURED_FIGURES });
    await standIn.lookups(10);
    expect(withKey(standIn)).toBe(standIn.requests.length);

    // The base moved to another port of the same machine: not the confirmed host, nothing goes there.
    const other = await startFaceitStandIn({ [ropz.steamid]: CAPTURED });
    expect((await setSources(server, { faceitDataApiUrl: other.dataApiUrl })).status).toBe(200);
    expect(await refused(server, { slot: ropz.slot, provider: 'platform_a' }, 503, 'unavailable')).toContain(
      `http://${new URL(other.dataApiUrl).host} is not confirmed`,
    );
    expect(other.requests).toEqual([]);
  });

  it.skipIf(!lanAddress)('never over plain http to another machine, even confirmed', async () => {
    const counter = await keyCounter();
    const host = `${lanAddress}:${counter.port}`;
    const standIn = await startFaceitStandIn({ [s1mple.steamid]: CAPTURED });
    const server = await liveServer(standIn, {
      overrides: { sources: { faceitDataApiUrl: `http://${host}/data/v4`, faceitKeyHost: host } },
    });
    expect(await refused(server, { slot: s1mple.slot, provider: 'platform_a' }, 503, 'unavailable')).toBe(
      `platform_a (FACEIT) stats are not looked up: FACEIT_API_KEY is never sent over http to another machine (http://${host}): only over https`,
    );
    // The server answers there (a request without the key reaches it), and no request carried the key.
    expect((await fetch(`http://${host}/data/v4/players`)).status).toBe(404);
    expect(counter.withKey()).toBe(0);
  });
});
