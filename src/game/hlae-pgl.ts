/**
 * HLAE's `mirv_pgl` messages (docs/game-data.md, "The killfeed from HLAE"): the game connects to a
 * WebSocket URL and sends binary messages, each a run of commands: a null-terminated UTF-8 name, then
 * that command's fields, numbers little-endian. A game event is sent with its descriptor (the event's
 * name and its keys' names and types) the first time its id is seen, by id alone after that.
 *
 * Everything read is bounded: a message, a string, the commands in a message, the events described,
 * the keys of one event. A message that breaks a bound or the format is refused whole (a
 * `PglError`), and the descriptors it would have taught are forgotten with it.
 */

/** The protocol version `hello` carries: the one HLAE's mirv_pgl speaks and its example servers check. */
export const PGL_VERSION = 2;
/** A message is a few events (HLAE sends one per game frame at most); 64 KiB is far above that. */
export const PGL_MESSAGE_LIMIT = 64 * 1024;
/** Commands in one message. */
export const PGL_COMMANDS_LIMIT = 512;
/** Bytes of one string (a map, an event's name, a key's name or a string value), its null excluded. */
export const PGL_STRING_LIMIT = 512;
/** Distinct event ids one connection may describe (CS:GO declares a few hundred events). */
export const PGL_EVENTS_LIMIT = 1024;
/** Keys of one event (player_death has about twenty). */
export const PGL_KEYS_LIMIT = 64;

/** Key types as mirv_pgl numbers them. */
export const PGL_KEY = {
  string: 1,
  float: 2,
  long: 3,
  short: 4,
  byte: 5,
  bool: 6,
  uint64: 7,
} as const;
type KeyType = (typeof PGL_KEY)[keyof typeof PGL_KEY];
const KEY_TYPES = new Set<number>(Object.values(PGL_KEY));

/**
 * Keys the server asked HLAE to enrich (`mirv_pgl events enrich eventProperty …`, sent after
 * `hello`): after the key's own value come the player's SteamID64, eye position and eye angles.
 */
export const USERID_ENRICHED: Readonly<Record<string, readonly string[]>> = {
  player_death: ['userid', 'attacker', 'assister'],
};
export const USERID_ENRICHMENTS = [
  'useridWithSteamId',
  'useridWithEyePosition',
  'useridWithEyeAngles',
] as const;

export interface PglKey {
  name: string;
  type: KeyType;
}

export interface PglEventDescriptor {
  name: string;
  keys: readonly PglKey[];
}

/** A key's value; an enriched user id carries the player's SteamID64 (as a decimal string). */
export type PglValue = string | number | boolean | bigint | { userid: number; xuid: string };

export type PglCommand =
  | { type: 'hello'; version: number }
  | { type: 'dataStart' }
  | { type: 'dataStop' }
  | { type: 'levelInit'; map: string }
  | { type: 'levelShutdown' }
  | { type: 'cam' }
  | { type: 'gameEvent'; name: string; clientTime: number; keys: Record<string, PglValue> };

export class PglError extends Error {}

/** What one connection has learnt: the events described so far, by id. */
export type PglEvents = Map<number, PglEventDescriptor>;

class Reader {
  #at = 0;
  readonly #view: DataView;
  static readonly #utf8 = new TextDecoder('utf-8', { fatal: true });
  constructor(readonly bytes: Uint8Array) {
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  get done(): boolean {
    return this.#at >= this.bytes.length;
  }
  #take(size: number, what: string): number {
    const at = this.#at;
    if (at + size > this.bytes.length) throw new PglError(`${what} cut short at byte ${at}`);
    this.#at += size;
    return at;
  }
  string(what: string): string {
    const end = this.bytes.indexOf(0, this.#at);
    if (end < 0) throw new PglError(`${what} has no terminating null (byte ${this.#at})`);
    if (end - this.#at > PGL_STRING_LIMIT)
      throw new PglError(`${what} is longer than ${PGL_STRING_LIMIT} bytes (byte ${this.#at})`);
    let text: string;
    try {
      text = Reader.#utf8.decode(this.bytes.subarray(this.#at, end));
    } catch {
      throw new PglError(`${what} is not UTF-8 (byte ${this.#at})`);
    }
    this.#at = end + 1;
    return text;
  }
  uint32(what: string): number {
    return this.#view.getUint32(this.#take(4, what), true);
  }
  int32(what: string): number {
    return this.#view.getInt32(this.#take(4, what), true);
  }
  int16(what: string): number {
    return this.#view.getInt16(this.#take(2, what), true);
  }
  int8(what: string): number {
    return this.#view.getInt8(this.#take(1, what));
  }
  bool(what: string): boolean {
    const byte = this.#view.getUint8(this.#take(1, what));
    if (byte > 1) throw new PglError(`${what} is ${byte}, not a boolean`);
    return byte === 1;
  }
  float(what: string): number {
    return this.#view.getFloat32(this.#take(4, what), true);
  }
  uint64(what: string): bigint {
    return this.#view.getBigUint64(this.#take(8, what), true);
  }
  skip(size: number, what: string): void {
    this.#take(size, what);
  }
}

function readDescriptor(reader: Reader): { id: number; descriptor: PglEventDescriptor } {
  const id = reader.int32('event id');
  if (id <= 0) throw new PglError(`event id ${id} is not positive`);
  const name = reader.string('event name');
  const keys: PglKey[] = [];
  const seen = new Set<string>();
  while (reader.bool('key marker')) {
    if (keys.length === PGL_KEYS_LIMIT)
      throw new PglError(`event ${name} has more than ${PGL_KEYS_LIMIT} keys`);
    const key = reader.string(`a key of ${name}`);
    const type = reader.int32(`the type of ${name}.${key}`);
    if (!KEY_TYPES.has(type)) throw new PglError(`${name}.${key} has unknown type ${type}`);
    if (seen.has(key)) throw new PglError(`${name}.${key} is described twice`);
    seen.add(key);
    keys.push({ name: key, type: type as KeyType });
  }
  return { id, descriptor: { name, keys } };
}

function readValue(reader: Reader, event: string, key: PglKey): PglValue {
  const what = `${event}.${key.name}`;
  let value: PglValue;
  switch (key.type) {
    case PGL_KEY.string:
      value = reader.string(what);
      break;
    case PGL_KEY.float:
      value = reader.float(what);
      break;
    case PGL_KEY.long:
      value = reader.int32(what);
      break;
    case PGL_KEY.short:
      value = reader.int16(what);
      break;
    case PGL_KEY.byte:
      value = reader.int8(what);
      break;
    case PGL_KEY.bool:
      value = reader.bool(what);
      break;
    case PGL_KEY.uint64:
      value = reader.uint64(what);
      break;
  }
  if (USERID_ENRICHED[event]?.includes(key.name)) {
    if (typeof value !== 'number') throw new PglError(`${what} is enriched but not a number`);
    const xuid = reader.uint64(`${what}'s SteamID`).toString();
    // Eye position and eye angles: three floats each, not used by the killfeed.
    reader.skip(24, `${what}'s eye position and angles`);
    return { userid: value, xuid };
  }
  return value;
}

/**
 * One binary message's commands. `events` is the connection's descriptors: it is changed only when
 * the whole message reads well.
 */
export function readPglMessage(bytes: Uint8Array, events: PglEvents): PglCommand[] {
  if (bytes.length > PGL_MESSAGE_LIMIT)
    throw new PglError(`a message of ${bytes.length} bytes is over the ${PGL_MESSAGE_LIMIT}-byte limit`);
  if (bytes.length === 0) throw new PglError('an empty message');
  const reader = new Reader(bytes);
  const learnt: PglEvents = new Map();
  const known = (id: number) => learnt.get(id) ?? events.get(id);
  const commands: PglCommand[] = [];
  while (!reader.done) {
    if (commands.length === PGL_COMMANDS_LIMIT)
      throw new PglError(`more than ${PGL_COMMANDS_LIMIT} commands in one message`);
    const name = reader.string('command');
    switch (name) {
      case 'hello':
        commands.push({ type: 'hello', version: reader.uint32('hello version') });
        break;
      case 'dataStart':
      case 'dataStop':
      case 'levelShutdown':
        commands.push({ type: name });
        break;
      case 'levelInit':
        commands.push({ type: 'levelInit', map: reader.string('map') });
        break;
      case 'cam':
        // Time, position, rotation, field of view: eight floats, not used here.
        reader.skip(32, 'cam');
        commands.push({ type: 'cam' });
        break;
      case 'gameEvent': {
        let id = reader.int32('event id');
        if (id === 0) {
          const described = readDescriptor(reader);
          id = described.id;
          if (!known(id) && events.size + learnt.size >= PGL_EVENTS_LIMIT)
            throw new PglError(`more than ${PGL_EVENTS_LIMIT} events described`);
          learnt.set(id, described.descriptor);
        }
        const descriptor = known(id);
        if (!descriptor) throw new PglError(`event id ${id} was never described`);
        const clientTime = reader.float('clientTime');
        const keys: Record<string, PglValue> = {};
        for (const key of descriptor.keys) keys[key.name] = readValue(reader, descriptor.name, key);
        commands.push({ type: 'gameEvent', name: descriptor.name, clientTime, keys });
        break;
      }
      default:
        throw new PglError(`unknown command "${name.slice(0, 40)}"`);
    }
  }
  for (const [id, descriptor] of learnt) events.set(id, descriptor);
  return commands;
}

const command = (text: string) => new TextEncoder().encode(`${text}\0`);
const exec = (line: string) => command(`exec\0${line}`);

/**
 * What the server sends after a good `hello`, in one transaction: game events on, each sent with its
 * clientTime, the killfeed's players enriched with their SteamIDs (as advancedfx's example server
 * misc/mirv_pgl_test/server.js does).
 */
export function pglSetup(): Uint8Array[] {
  const lines = ['mirv_pgl events enrich clientTime 1'];
  for (const [event, keys] of Object.entries(USERID_ENRICHED))
    for (const key of keys)
      for (const enrichment of USERID_ENRICHMENTS)
        lines.push(`mirv_pgl events enrich eventProperty "${enrichment}" "${event}" "${key}"`);
  lines.push('mirv_pgl events enabled 1');
  return [command('transBegin'), ...lines.map(exec), command('transEnd')];
}
