// The show's floor (issue 23): the least this design allows for a live match on the broadcast PC.
//   - POST /gsi: the game's frame parsed (Fastify's JSON parser, as the service), the cfg's auth token
//     compared in constant time, the fields it reads checked for their types (400 otherwise), answered
//     {"ok":true} at once; "receiving" kept by one timer pushed back per frame;
//   - the previous frame's visible values kept (ten players: name, health, armour, money, kills,
//     deaths, assists, the weapon; the top bar: both scores, the clock, the round, the phase) and
//     only what changed sent, one JSON text built once, to every page on the WebSocket;
//   - commands of the control surfaces over the same WebSocket (toggle_scoreboard, toggle_stats): the
//     flag flipped, the revision raised, the change written to a journal (write(2) before the answer,
//     fdatasync within a second), the event to every client, the result to the sender;
//   - GET /floor: the floor page (bench/show-floor-page.html and its script).
// Nothing else. So what the service spends above this on a show is what its design does not need.
// Plain JavaScript on purpose, like bench/floor-server.mjs: started with plain node as the built CLI is.
import { timingSafeEqual } from 'node:crypto';
import { closeSync, fdatasync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { crc32 } from 'node:zlib';
import Fastify, { LogController } from 'fastify';
import { WebSocketServer } from 'ws';

const { values } = parseArgs({ options: { port: { type: 'string' }, token: { type: 'string' } } });
const TOKEN = Buffer.from(values.token ?? '');
const PAGE = readFileSync(new URL('./show-floor-page.html', import.meta.url));
const SCRIPT = readFileSync(new URL('./show-floor-page.js', import.meta.url));

// --- The journal of the commands' changes -------------------------------------------------------

const dataDir = mkdtempSync(join(tmpdir(), 'hud-show-floor-'));
const journal = openSync(join(dataDir, 'state.journal'), 'a', 0o600);
let syncTimer = null;

function append(json) {
  const payload = Buffer.from(json);
  const frame = Buffer.allocUnsafe(8 + payload.length);
  frame.writeUInt32LE(payload.length, 0);
  frame.writeUInt32LE(crc32(payload), 4);
  payload.copy(frame, 8);
  for (let offset = 0; offset < frame.length; ) offset += writeSync(journal, frame, offset);
  if (syncTimer === null)
    syncTimer = setTimeout(() => {
      syncTimer = null;
      fdatasync(journal, () => {});
    }, 1_000).unref();
}

// --- State: the panels, the revision, "receiving", the roster -------------------------------------

let revision = 0;
const panels = { scoreboardVisible: false, statsVisible: false };
let receiving = false;
let receivingTimer = null;
/** The roster (slot and name) as last saved: saved again only when it changes. */
let rosterKey = '';

function commit(data) {
  revision++;
  append(JSON.stringify({ revision, data }));
  broadcast(`{"type":"event","event":"hud.state","revision":${revision},"data":${JSON.stringify(data)}}`);
}

function keepReceiving() {
  if (receivingTimer) return void receivingTimer.refresh();
  receivingTimer = setTimeout(() => {
    receivingTimer = null;
    receiving = false;
    commit({ gameReceiving: false });
  }, 5_000).unref();
}

// --- The live view: visible values only, and what changed ------------------------------------------

const SLOT_OF = (observerSlot) => (Number.isInteger(observerSlot) ? observerSlot : -1);
const PRIMARY = new Set(['Rifle', 'SniperRifle', 'Submachine Gun', 'Shotgun', 'Machine Gun']);
const isInt = (value) => value === undefined || Number.isInteger(value);
const isText = (value) => value === undefined || typeof value === 'string';

/** The weapon a box shows: the primary, else the pistol, else the knife. */
function weaponOf(weapons) {
  let pistol = '';
  let knife = '';
  for (const key in weapons) {
    const weapon = weapons[key];
    if (PRIMARY.has(weapon.type)) return weapon.name ?? '';
    if (weapon.type === 'Pistol' && !pistol) pistol = weapon.name ?? '';
    else if (weapon.type === 'Knife' && !knife) knife = weapon.name ?? '';
  }
  return pistol || knife;
}

/** The visible values of a frame, flat: "p<slot>.<field>" and "top.<field>" to value; null if a type is wrong. */
function visibleOf(body) {
  const out = new Map();
  const map = body.map ?? {};
  const ct = map.team_ct ?? {};
  const t = map.team_t ?? {};
  if (!isInt(map.round) || !isInt(ct.score) || !isInt(t.score) || !isText(map.phase)) return null;
  const countdowns = body.phase_countdowns ?? {};
  out.set('top.ct', ct.score ?? 0);
  out.set('top.t', t.score ?? 0);
  out.set('top.ctName', ct.name ?? '');
  out.set('top.tName', t.name ?? '');
  out.set('top.round', map.round ?? 0);
  out.set('top.phase', countdowns.phase ?? body.round?.phase ?? '');
  const clock = Number.parseFloat(countdowns.phase_ends_in);
  out.set('top.clock', Number.isFinite(clock) ? Math.round(clock * 10) / 10 : null);
  const all = body.allplayers ?? {};
  for (const steamid in all) {
    const raw = all[steamid];
    if (raw.team !== 'CT' && raw.team !== 'T') continue;
    const slot = SLOT_OF(raw.observer_slot);
    if (slot < 0 || slot > 9) continue;
    const state = raw.state ?? {};
    const stats = raw.match_stats ?? {};
    if (!isInt(state.health) || !isInt(state.armor) || !isInt(state.money) || !isInt(stats.kills))
      return null;
    if (!isInt(stats.deaths) || !isInt(stats.assists) || !isText(raw.name)) return null;
    const p = `p${slot}.`;
    out.set(`${p}name`, raw.name ?? '');
    out.set(`${p}side`, raw.team);
    out.set(`${p}health`, state.health ?? 0);
    out.set(`${p}armor`, state.armor ?? 0);
    out.set(`${p}money`, state.money ?? 0);
    out.set(`${p}kills`, stats.kills ?? 0);
    out.set(`${p}deaths`, stats.deaths ?? 0);
    out.set(`${p}assists`, stats.assists ?? 0);
    out.set(`${p}weapon`, weaponOf(raw.weapons ?? {}));
    // The radar: where the player stands (whole world units) and looks (whole degrees).
    const [x, y] = String(raw.position ?? '')
      .split(', ')
      .map(Number);
    const [fx, fy] = String(raw.forward ?? '')
      .split(', ')
      .map(Number);
    out.set(`${p}x`, Number.isFinite(x) ? Math.round(x) : null);
    out.set(`${p}y`, Number.isFinite(y) ? Math.round(y) : null);
    out.set(
      `${p}facing`,
      Number.isFinite(fx) && Number.isFinite(fy) ? Math.round((Math.atan2(fy, fx) * 180) / Math.PI) : null,
    );
  }
  return out;
}

let previous = new Map();

/** The changed values as one JSON text (null when nothing changed), and the roster when it changed. */
function ingest(body) {
  const next = visibleOf(body);
  if (next === null) return false;
  let changed = '';
  for (const [key, value] of next) {
    if (previous.get(key) === value) continue;
    changed += `${changed ? ',' : ''}${JSON.stringify(key)}:${JSON.stringify(value)}`;
  }
  for (const key of previous.keys())
    if (!next.has(key)) changed += `${changed ? ',' : ''}${JSON.stringify(key)}:null`;
  previous = next;
  if (changed) broadcast(`{"type":"game","now":${Date.now()},"live":{${changed}}}`, isPage);
  // The roster is state: a revision and a journal record when it changes, never per frame.
  let roster = '';
  for (let slot = 0; slot <= 9; slot++) roster += `${next.get(`p${slot}.name`) ?? ''}\n`;
  if (roster !== rosterKey) {
    rosterKey = roster;
    commit({ roster });
  }
  if (!receiving) {
    receiving = true;
    commit({ gameReceiving: true });
  }
  keepReceiving();
  return true;
}

// --- HTTP and the WebSocket ---------------------------------------------------------------------

const app = Fastify({
  logger: { level: 'warn' },
  logController: new LogController({ disableRequestLogging: true }),
  bodyLimit: 1024 * 1024,
  keepAliveTimeout: 5_000,
});

const isLoopback = (address) =>
  address === '::1' || address?.startsWith('127.') || address?.startsWith('::ffff:127.');

app.addHook('onRequest', (request, reply, done) => {
  if (!isLoopback(request.socket.remoteAddress))
    return reply.code(403).send({ ok: false, error: 'forbidden' });
  done();
});

const OK = { 200: { type: 'object', properties: { ok: { type: 'boolean' } } } };

app.get('/health', async () => ({ ok: true, service: 'show-floor' }));
app.get('/floor', (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
app.get('/show-floor-page.js', (_request, reply) =>
  reply.type('text/javascript; charset=utf-8').send(SCRIPT),
);

app.post('/gsi', { schema: { response: OK } }, (request, reply) => {
  const body = request.body;
  const token = Buffer.from(String(body?.auth?.token ?? ''));
  if (token.length !== TOKEN.length || !timingSafeEqual(token, TOKEN))
    return reply.code(401).send({ ok: false, error: 'unauthorized' });
  if (body === null || typeof body !== 'object' || !ingest(body))
    return reply.code(400).send({ ok: false, error: 'invalid_payload' });
  return reply.send({ ok: true });
});

/** Every client; the pages (role=page) also get the live data. */
const clients = new Set();
const isPage = (client) => client.page;

function broadcast(text, to) {
  const data = Buffer.from(text);
  for (const client of clients) if (!to || to(client)) client.socket.send(data, { binary: false });
}

const wss = new WebSocketServer({ server: app.server, maxPayload: 64 * 1024 });
wss.on('connection', (socket, request) => {
  const page = new URL(request.url ?? '/', 'http://l').searchParams.get('role') === 'page';
  const client = { socket, page };
  clients.add(client);
  socket.on('close', () => clients.delete(client));
  socket.on('message', (data) => {
    let message;
    try {
      message = JSON.parse(data.toString());
    } catch {
      return;
    }
    if (message?.type !== 'trigger') return;
    const key =
      message.action === 'toggle_scoreboard'
        ? 'scoreboardVisible'
        : message.action === 'toggle_stats'
          ? 'statsVisible'
          : null;
    if (key === null) {
      socket.send(
        JSON.stringify({ type: 'result', id: message.id ?? null, ok: false, error: 'unknown_action' }),
      );
      return;
    }
    panels[key] = !panels[key];
    commit({ [key]: panels[key] });
    socket.send(JSON.stringify({ type: 'result', id: message.id ?? null, ok: true, state: { revision } }));
  });
  socket.send(JSON.stringify({ type: 'hello', snapshot: { revision, state: { ...panels, receiving } } }));
  if (page) {
    let all = '';
    for (const [key, value] of previous)
      all += `${all ? ',' : ''}${JSON.stringify(key)}:${JSON.stringify(value)}`;
    socket.send(`{"type":"game","now":${Date.now()},"full":true,"live":{${all}}}`);
  }
});

await app.listen({ port: Number(values.port ?? 0), host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(`show floor ready\n  HTTP      http://127.0.0.1:${port}\n`);
const stop = () => {
  for (const client of clients) client.socket.terminate();
  wss.close();
  app.close().then(() => {
    closeSync(journal);
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
