/**
 * A local stand-in for FACEIT's Data API v4, built from its documented answers (test/fixtures,
 * faceit_data-v4-players__moneymatch__capture-2026-08-11.SOURCE.md): a real HTTP server on 127.0.0.1
 * that answers the player lookup by SteamID64 and the lifetime stats, checks the Bearer key as
 * FACEIT does, and can fail as FACEIT can (no account, a hang, an error status, a broken answer).
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

const FIXTURES = new URL('../fixtures/', import.meta.url);
const fixture = (name: string) => JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));

/** The captured player (donk666) and his CS2 lifetime stats. */
export const FACEIT_PLAYER = fixture('faceit_data-v4-players_cs2__moneymatch__capture-2026-08-11.json');
export const FACEIT_STATS = fixture('faceit_data-v4-players-stats_cs2__moneymatch__capture-2026-08-11.json');

/** The figures the HUD shows for that player: what the service makes of the two answers. */
export const CAPTURED_FIGURES = {
  nickname: 'donk666',
  level: 10,
  elo: 4627,
  kd: 1.45,
  winRate: 61,
  matches: 7199,
  headshots: 60,
  adr: 114.15,
  recent: [true, true, true, false, true],
};

export const STAND_IN_KEY = 'stand-in-server-side-key';

/** How the stand-in answers the lookup of one SteamID64. */
export type Behaviour =
  | { kind: 'player'; player: Record<string, unknown>; stats: Record<string, unknown> | 'missing' }
  | { kind: 'status'; status: number }
  | { kind: 'hang' }
  | { kind: 'not-json' }
  | { kind: 'huge' };

export const CAPTURED: Behaviour = { kind: 'player', player: FACEIT_PLAYER, stats: FACEIT_STATS };

export interface FaceitStandIn {
  /** The Data API's base, as HUD_FACEIT_DATA_API_URL takes it. */
  dataApiUrl: string;
  /** How each SteamID64 is answered; any other is a 404, as FACEIT answers a player it does not know. */
  players: Map<string, Behaviour>;
  requests: { path: string; headers: IncomingHttpHeaders }[];
  /** Player lookups asked for this SteamID64 so far. */
  lookupsOf(steamid: string): number;
  /** Resolves once `count` player lookups in all have arrived. */
  lookups(count: number): Promise<void>;
}

const FACEIT_ERROR = (status: number, message: string) =>
  JSON.stringify({ errors: [{ message, code: `err_${status}`, http_status: status, parameters: [] }] });

const running: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of running.splice(0)) await close();
});

export async function startFaceitStandIn(players: Record<string, Behaviour> = {}): Promise<FaceitStandIn> {
  const events = new EventEmitter();
  const behaviours = new Map(Object.entries(players));
  const requests: FaceitStandIn['requests'] = [];
  const statsOf = new Map<string, Behaviour & { kind: 'player' }>();
  const lookupPaths = () => requests.filter((request) => request.path.startsWith('/data/v4/players?'));

  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push({ path, headers: request.headers });
    events.emit('request');
    const json = (status: number, body: string) =>
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(body);
    if (request.headers.authorization !== `Bearer ${STAND_IN_KEY}`) {
      json(401, FACEIT_ERROR(401, 'Unauthorized'));
      return;
    }
    const url = new URL(path, 'http://stand-in');
    if (url.pathname === '/data/v4/players' && url.searchParams.get('game') === 'cs2') {
      const steamid = url.searchParams.get('game_player_id') ?? '';
      const behaviour = behaviours.get(steamid);
      if (!behaviour) return json(404, FACEIT_ERROR(404, 'The resource was not found.'));
      switch (behaviour.kind) {
        case 'hang':
          return;
        case 'status':
          return json(behaviour.status, FACEIT_ERROR(behaviour.status, 'stand-in failure'));
        case 'not-json':
          response
            .writeHead(200, { 'content-type': 'text/html' })
            .end('<html><body>maintenance</body></html>');
          return;
        case 'huge':
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(`{"padding":"${'x'.repeat(2 * 1024 * 1024)}"}`);
          return;
        case 'player': {
          const playerId = `${String(behaviour.player.player_id)}-${steamid}`;
          statsOf.set(playerId, behaviour);
          return json(200, JSON.stringify({ ...behaviour.player, player_id: playerId }));
        }
      }
    }
    const stats = /^\/data\/v4\/players\/([^/]+)\/stats\/cs2$/.exec(url.pathname);
    const known = stats ? statsOf.get(decodeURIComponent(stats[1] ?? '')) : undefined;
    if (known && known.stats !== 'missing') return json(200, JSON.stringify(known.stats));
    json(404, FACEIT_ERROR(404, 'The resource was not found.'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  running.push(
    () =>
      new Promise<void>((resolve) => {
        // A hanging request and kept-alive sockets would hold close() open.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    dataApiUrl: `http://127.0.0.1:${port}/data/v4`,
    players: behaviours,
    requests,
    lookupsOf: (steamid) =>
      lookupPaths().filter((request) => request.path.includes(`game_player_id=${steamid}`)).length,
    lookups: (count) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (lookupPaths().length < count) return;
          events.off('request', check);
          resolve();
        };
        events.on('request', check);
        check();
      }),
  };
}
