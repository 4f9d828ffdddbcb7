// The floor (issue 18, "the cost of the house"): the least this design allows for the routes the bench
// compares, POST /api/actions/toggle_scoreboard, POST /api/actions/set_map_result and GET /api/state.
// Every request still gets what the design promises; nothing else is done:
//   - an access check before routing: the peer on loopback, the Host header naming this machine
//     with the port, any Origin header refused (403);
//   - the request recorded in a fixed ring of recent requests (the panel's list);
//   - one XState actor per panel and one for the match, a revision raised on each change;
//   - a command answered only once its change's journal record is with the operating system: one
//     framed record ([length][crc32][JSON of the changed part]) written with write(2) to a file open
//     for appending, changes arriving while one write is pending going out together in the next
//     (group commit after the loop's poll phase), fdatasync within a second beside the writes, as
//     src/persistence/state-store.ts does;
//   - answers of the same shape and size as the project's, serialised from response schemas.
// So a route of the project that runs below this one pays for something the design does not ask for.
// Plain JavaScript on purpose, like bench/bare-server.mjs: started with plain node as the built CLI is.
import { closeSync, fdatasync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { crc32 } from 'node:zlib';
import Fastify, { LogController } from 'fastify';
import { assign, createActor, createMachine } from 'xstate';

const { values } = parseArgs({ options: { port: { type: 'string' } } });

// --- The actors ---------------------------------------------------------------------------------

const panelMachine = createMachine({
  id: 'panel',
  context: { visible: null },
  initial: 'hidden',
  states: {
    hidden: { on: { 'panel.toggle': { target: 'shown', actions: assign({ visible: true }) } } },
    shown: { on: { 'panel.toggle': { target: 'hidden', actions: assign({ visible: false }) } } },
  },
});

const matchMachine = createMachine({
  id: 'match',
  context: ({ input }) => input,
  on: {
    'match.mapResult.set': {
      actions: assign({
        maps: ({ context, event }) =>
          context.maps.map((map, index) =>
            index === event.index
              ? {
                  ...map,
                  scoreA: event.scoreA,
                  scoreB: event.scoreB,
                  finished: event.finished ?? map.finished,
                  winner: (event.finished ?? map.finished) ? winnerOf(event.scoreA, event.scoreB) : null,
                }
              : map,
          ),
      }),
    },
  },
});

const winnerOf = (a, b) => (a > b ? 'A' : b > a ? 'B' : null);

// The match as the bench's veto_set leaves it in the project: a bo3 over seven maps.
const seriesMap = (map, pickedBy) => ({ map, pickedBy, finished: false, scoreA: 0, scoreB: 0, winner: null });
const MATCH = {
  eventName: '',
  teamFormat: 'auto',
  boFormat: 'bo3',
  teamA: { name: 'Alpha' },
  teamB: { name: 'Bravo' },
  maps: [seriesMap('de_mirage', 'A'), seriesMap('de_inferno', 'B'), seriesMap('de_dust2', 'decider')],
  veto: [
    { type: 'ban', team: 'A', map: 'de_ancient' },
    { type: 'ban', team: 'B', map: 'de_anubis' },
    { type: 'pick', team: 'A', map: 'de_mirage' },
    { type: 'pick', team: 'B', map: 'de_inferno' },
    { type: 'ban', team: 'A', map: 'de_nuke' },
    { type: 'ban', team: 'B', map: 'de_overpass' },
    { type: 'decider', map: 'de_dust2' },
  ],
  beforeSession: null,
  teamASide: 'CT',
};
const LABELS = { de_mirage: 'Mirage', de_inferno: 'Inferno', de_dust2: 'Dust II' };

const PANELS = ['scoreboard', 'vetoPanel', 'stats', 'overlay'];
const panels = Object.fromEntries(PANELS.map((id) => [id, createActor(panelMachine).start()]));
const match = createActor(matchMachine, { input: MATCH }).start();

// --- The revision and the HUD state (what GET /api/state answers) --------------------------------

let revision = 0;
const hud = {
  revision,
  roster: [],
  hudWindowOpen: false,
  mainWindowOpen: true,
  senScene: null,
  obs: { connection: 'disconnected', replayBufferActive: false, reason: 'switched_off' },
  sides: { teamA: 'CT', teamB: 'T' },
  gameReceiving: false,
  storage: { ok: true, reason: null },
};

// --- The journal: group commit, written before the answer ----------------------------------------

const dataDir = mkdtempSync(join(tmpdir(), 'hud-floor-'));
const journal = openSync(join(dataDir, 'state.journal'), 'a', 0o600);
const counters = { appends: 0, syncs: 0 };
/** The parts changed since the last write, and the answers waiting for that write. */
const dirty = new Set();
let waiting = [];
let syncTimer = null;

function partOf(key) {
  if (key === 'match') return match.getSnapshot().context;
  return Object.fromEntries(
    PANELS.map((id) => [id, { visible: panels[id].getSnapshot().context.visible, hideAt: null }]),
  );
}

/** Resolves once the record holding the current change is written. */
function save(key) {
  dirty.add(key);
  // After the poll phase: every request read in this turn of the loop goes into the one write.
  if (waiting.length === 0) setImmediate(flush);
  return new Promise((resolve) => waiting.push(resolve));
}

/** Each part's JSON as last written: a part whose changes cancelled out (two toggles) is not written again. */
const written = new Map();

function flush() {
  const parts = [];
  for (const key of dirty) {
    const json = JSON.stringify(partOf(key));
    if (written.get(key) === json) continue;
    written.set(key, json);
    parts.push(`${JSON.stringify(key)}:${json}`);
  }
  dirty.clear();
  const answers = waiting;
  waiting = [];
  if (parts.length > 0) append(parts.join(','));
  for (const resolve of answers) resolve();
}

function append(parts) {
  const payload = Buffer.from(
    `{"revision":${revision},"savedAt":${JSON.stringify(new Date().toISOString())},"parts":{${parts}}}`,
  );
  const frame = Buffer.allocUnsafe(8 + payload.length);
  frame.writeUInt32LE(payload.length, 0);
  frame.writeUInt32LE(crc32(payload), 4);
  payload.copy(frame, 8);
  for (let offset = 0; offset < frame.length; ) offset += writeSync(journal, frame, offset);
  counters.appends++;
  // fdatasync within a second, beside the writes (never before an answer), as the project's store does.
  if (syncTimer === null)
    syncTimer = setTimeout(() => {
      syncTimer = null;
      counters.syncs++;
      fdatasync(journal, () => {});
    }, 1_000).unref();
}

// --- The recent-requests ring -------------------------------------------------------------------

const RECENT = 300;
const recent = new Array(RECENT);
const recentAt = new Float64Array(RECENT);
let recentNext = 0;

function record(entry) {
  recent[recentNext] = entry;
  recentAt[recentNext] = Date.now();
  recentNext = recentNext === RECENT - 1 ? 0 : recentNext + 1;
}

// --- HTTP ---------------------------------------------------------------------------------------

const app = Fastify({
  logger: { level: 'warn' },
  logController: new LogController({ disableRequestLogging: true }),
  // The project's keep-alive (src/http/connection-limits.ts): the same header, the same answer size.
  keepAliveTimeout: 5_000,
});

const isLoopback = (address) =>
  address === '::1' || address?.startsWith('127.') || address?.startsWith('::ffff:127.');
let hosts = new Set();
const refuse = (reply, message) => reply.code(403).send({ ok: false, error: 'forbidden', message });

app.addHook('onRequest', (request, reply, done) => {
  if (!isLoopback(request.socket.remoteAddress)) return refuse(reply, 'only for programs on this machine');
  if (request.headers.host !== undefined && !hosts.has(request.headers.host))
    return refuse(reply, `Host ${request.headers.host} is not this machine`);
  if (request.headers.origin !== undefined) return refuse(reply, 'requests from web pages are refused');
  done();
});

app.addHook('onResponse', (request, reply, done) => {
  const query = request.url.indexOf('?');
  const path = query === -1 ? request.url : request.url.slice(0, query);
  record({
    transport: 'http',
    request: `${request.method} ${path}`,
    status: reply.statusCode,
    address: request.socket.remoteAddress,
  });
  done();
});

const flags = { type: 'object', additionalProperties: true };
const okAnswer = (properties) => ({
  200: { type: 'object', properties: { ok: { type: 'boolean' }, ...properties } },
});

app.get('/health', async () => ({ ok: true, service: 'floor' }));

app.get('/internal/storage', async () => ({ storage: counters }));

const nullable = (type) => ({ type: [type, 'null'] });
const HUD_STATE = {
  type: 'object',
  properties: {
    revision: { type: 'integer' },
    roster: { type: 'array', items: flags },
    hudWindowOpen: { type: 'boolean' },
    mainWindowOpen: { type: 'boolean' },
    senScene: nullable('string'),
    obs: {
      type: 'object',
      properties: {
        connection: { type: 'string' },
        replayBufferActive: { type: 'boolean' },
        reason: nullable('string'),
      },
    },
    sides: { type: 'object', properties: { teamA: { type: 'string' }, teamB: { type: 'string' } } },
    gameReceiving: { type: 'boolean' },
    storage: { type: 'object', properties: { ok: { type: 'boolean' }, reason: nullable('string') } },
    scoreboardVisible: { type: 'boolean' },
    vetoVisible: { type: 'boolean' },
    statsVisible: { type: 'boolean' },
  },
};

app.get('/api/state', { schema: { response: okAnswer({ state: HUD_STATE }) } }, (_request, reply) =>
  reply.send({ ok: true, state: hud }),
);

const commandAnswer = okAnswer({
  state: {
    type: 'object',
    properties: { revision: { type: 'integer' }, scoreboardVisible: { type: 'boolean' } },
  },
  result: flags,
});

app.post('/api/actions/toggle_scoreboard', { schema: { response: commandAnswer } }, async () => {
  const actor = panels.scoreboard;
  const before = actor.getSnapshot();
  actor.send({ type: 'panel.toggle' });
  const after = actor.getSnapshot();
  if (after !== before) {
    hud.revision = ++revision;
    hud.scoreboardVisible = after.context.visible;
    await save('panels');
  }
  return { ok: true, state: { revision, scoreboardVisible: after.context.visible }, result: {} };
});

const string = { type: 'string' };
const integer = { type: 'integer' };
const team = { type: 'object', properties: { name: string } };
/** The match summary the answer carries, typed all through so that it is serialised by its schema. */
const MATCH_SUMMARY = {
  type: 'object',
  properties: {
    eventName: string,
    teamFormat: string,
    boFormat: string,
    teamA: team,
    teamB: team,
    maps: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          number: integer,
          map: string,
          label: string,
          pickedBy: string,
          pickedSide: string,
          finished: { type: 'boolean' },
          scoreA: integer,
          scoreB: integer,
          winner: nullable('string'),
          winnerSide: nullable('string'),
        },
      },
    },
    seriesScore: { type: 'object', properties: { a: integer, b: integer } },
    veto: {
      type: 'object',
      properties: {
        steps: {
          type: 'array',
          items: { type: 'object', properties: { type: string, team: nullable('string'), map: string } },
        },
        revealed: integer,
      },
    },
  },
};

app.post(
  '/api/actions/set_map_result',
  {
    schema: {
      body: {
        type: 'object',
        required: ['map', 'scoreA', 'scoreB'],
        additionalProperties: false,
        properties: {
          map: { type: 'integer', minimum: 1, maximum: 5 },
          scoreA: { type: 'integer', minimum: 0, maximum: 99 },
          scoreB: { type: 'integer', minimum: 0, maximum: 99 },
          finished: { type: 'boolean' },
        },
      },
      response: okAnswer({
        state: { type: 'object', properties: { revision: { type: 'integer' } } },
        result: MATCH_SUMMARY,
      }),
    },
  },
  async (request, reply) => {
    const { map, scoreA, scoreB, finished } = request.body;
    const before = match.getSnapshot();
    if (map > before.context.maps.length)
      return reply
        .code(400)
        .send({ ok: false, error: 'invalid_payload', message: `no map ${map} in the series` });
    match.send({ type: 'match.mapResult.set', index: map - 1, scoreA, scoreB, finished });
    const after = match.getSnapshot();
    if (after !== before) {
      hud.revision = ++revision;
      await save('match');
    }
    return { ok: true, state: { revision }, result: summaryOf(after.context) };
  },
);

/** The match as the project's set_map_result answers it (its matchSummaryOf). */
function summaryOf(context) {
  const nameOf = (side) => (side === 'A' ? context.teamA.name : context.teamB.name);
  return {
    eventName: context.eventName,
    teamFormat: context.teamFormat,
    boFormat: context.boFormat,
    teamA: context.teamA,
    teamB: context.teamB,
    maps: context.maps.map((entry, index) => ({
      number: index + 1,
      map: entry.map,
      label: LABELS[entry.map] ?? entry.map,
      pickedBy: entry.pickedBy === 'decider' ? 'decider' : nameOf(entry.pickedBy),
      pickedSide: entry.pickedBy,
      finished: entry.finished,
      scoreA: entry.scoreA,
      scoreB: entry.scoreB,
      winner: entry.winner ? nameOf(entry.winner) : null,
      winnerSide: entry.winner,
    })),
    seriesScore: {
      a: context.maps.filter((entry) => entry.finished && entry.winner === 'A').length,
      b: context.maps.filter((entry) => entry.finished && entry.winner === 'B').length,
    },
    veto: {
      steps: context.veto.map((step) => ({ type: step.type, team: step.team ?? null, map: step.map })),
      revealed: context.veto.length,
    },
  };
}

await app.listen({ port: Number(values.port ?? 0), host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
hosts = new Set([`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]);
process.stdout.write(`floor ready\n  HTTP      http://127.0.0.1:${port}\n`);
const stop = () =>
  app.close().then(() => {
    closeSync(journal);
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
