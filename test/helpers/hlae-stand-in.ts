/**
 * A stand-in for HLAE's mirv_pgl in the game: a real `ws` client that writes the binary messages as
 * advancedfx's example server (misc/mirv_pgl_test/server.js) reads them (docs/game-data.md, "The
 * killfeed from HLAE"): null-terminated UTF-8 names, little-endian numbers, an event's descriptor the
 * first time its id is sent. player_death's keys are CS:GO's (the AlliedModders event list), with
 * `userid`, `attacker` and `assister` enriched by SteamID64, eye position and eye angles.
 */
import { WebSocket } from 'ws';

/** Bytes written in order. */
export class Bytes {
  readonly #parts: Buffer[] = [];
  string(text: string): this {
    this.#parts.push(Buffer.from(`${text}\0`, 'utf8'));
    return this;
  }
  uint32(value: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value);
    this.#parts.push(b);
    return this;
  }
  int32(value: number): this {
    const b = Buffer.alloc(4);
    b.writeInt32LE(value);
    this.#parts.push(b);
    return this;
  }
  int16(value: number): this {
    const b = Buffer.alloc(2);
    b.writeInt16LE(value);
    this.#parts.push(b);
    return this;
  }
  byte(value: number): this {
    this.#parts.push(Buffer.from([value]));
    return this;
  }
  bool(value: boolean): this {
    return this.byte(value ? 1 : 0);
  }
  float(value: number): this {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    this.#parts.push(b);
    return this;
  }
  uint64(value: bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(value);
    this.#parts.push(b);
    return this;
  }
  raw(bytes: Uint8Array): this {
    this.#parts.push(Buffer.from(bytes));
    return this;
  }
  done(): Buffer {
    return Buffer.concat(this.#parts);
  }
}

type KeyType = 1 | 2 | 3 | 4 | 5 | 6 | 7;
interface EventType {
  id: number;
  name: string;
  keys: Array<[string, KeyType]>;
  /** Keys enriched with SteamID64, eye position and eye angles. */
  enriched: readonly string[];
}

export const PLAYER_DEATH: EventType = {
  id: 23,
  name: 'player_death',
  keys: [
    ['userid', 4],
    ['attacker', 4],
    ['assister', 4],
    ['assistedflash', 6],
    ['weapon', 1],
    ['weapon_itemid', 1],
    ['weapon_fauxitemid', 1],
    ['weapon_originalowner_xuid', 1],
    ['headshot', 6],
    ['dominated', 4],
    ['revenge', 4],
    ['wipe', 4],
    ['penetrated', 4],
    ['noreplay', 6],
    ['noscope', 6],
    ['thrusmoke', 6],
    ['attackerblind', 6],
    ['distance', 2],
  ],
  enriched: ['userid', 'attacker', 'assister'],
};

/** An event the killfeed does not use, sent among the deaths. */
export const WEAPON_FIRE: EventType = {
  id: 141,
  name: 'weapon_fire',
  keys: [
    ['userid', 4],
    ['weapon', 1],
    ['silenced', 6],
  ],
  enriched: [],
};

export type EventValues = Record<string, string | number | boolean | bigint>;

/** A player as an enriched key carries him: his user id and SteamID64 (0n: nobody). */
export const player = (userid: number, steamid: string | null) => ({
  userid,
  xuid: steamid === null ? 0n : BigInt(steamid),
});

export interface PglStandIn {
  socket: WebSocket;
  /** Every binary message the server sent, split into its null-terminated strings. */
  received: string[][];
  /** Waits until the server's setup after hello has arrived (its transEnd). */
  setUp(): Promise<void>;
  send(message: Buffer | string): void;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

export async function connectPgl(url: string): Promise<PglStandIn> {
  const socket = new WebSocket(url);
  const received: string[][] = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (data: Buffer) => {
    received.push(data.toString('utf8').split('\0').slice(0, -1));
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`HTTP ${response.statusCode}`)),
    );
  });
  return {
    socket,
    received,
    async setUp() {
      while (!received.some((message) => message[0] === 'transEnd')) {
        if (socket.readyState === WebSocket.CLOSED) throw new Error('closed before the setup came');
        await new Promise<void>((wake) => waiters.push(wake));
      }
    },
    send: (message) => socket.send(message, { binary: typeof message !== 'string' }),
    closed,
    close: () => socket.close(),
  };
}

/** The game's side of a link: which event ids it has described so far. */
export class PglWriter {
  readonly #described = new Set<number>();

  hello(version = 2): Bytes {
    return new Bytes().string('hello').uint32(version);
  }

  /** One gameEvent command, with its descriptor the first time, appended to `out`. */
  event(out: Bytes, type: EventType, values: EventValues | Record<string, any>, clientTime = 1): Bytes {
    out.string('gameEvent');
    if (this.#described.has(type.id)) out.int32(type.id);
    else {
      this.#described.add(type.id);
      out.int32(0).int32(type.id).string(type.name);
      for (const [name, kind] of type.keys) out.bool(true).string(name).int32(kind);
      out.bool(false);
    }
    out.float(clientTime);
    for (const [name, kind] of type.keys) {
      const raw = values[name];
      const enriched = type.enriched.includes(name);
      const value = enriched ? raw.userid : raw;
      switch (kind) {
        case 1:
          out.string(String(value ?? ''));
          break;
        case 2:
          out.float(Number(value ?? 0));
          break;
        case 3:
          out.int32(Number(value ?? 0));
          break;
        case 4:
          out.int16(Number(value ?? 0));
          break;
        case 5:
          out.byte(Number(value ?? 0));
          break;
        case 6:
          out.bool(Boolean(value));
          break;
        case 7:
          out.uint64(BigInt(value ?? 0));
          break;
      }
      if (enriched) {
        out.uint64(raw.xuid);
        for (let i = 0; i < 6; i++) out.float(0);
      }
    }
    return out;
  }
}
