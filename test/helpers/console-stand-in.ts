/**
 * A stand-in for CS2's network console (`-netconport`) on 127.0.0.1: it records every line the
 * observer sends, as the game would read them. Used by test/observer/*.test.ts. It can also behave
 * badly, as a hostile console or a broken game would: never close its side, flood, or drop every
 * client at once.
 */
import { EventEmitter, once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';

/**
 * Which cut a stand-in game obeys, as a game build might (issue 32: no one knows which today's CS2
 * takes): `name` moves on `spec_player "<name>"`; `name_lock` only on a choice by name followed by
 * the lock on that player's account; `csgo` on `spec_player_by_accountid <id>`; `none` on nothing.
 */
export type Obeys = 'name' | 'name_lock' | 'csgo' | 'none';

/** Whom the stand-in game shows, as the console named him. */
export type Shown = { name: string } | { accountId: number } | null;

export interface ConsoleBehaviour {
  /** false: never closes its side of a connection, not even after the observer's FIN. */
  closes: boolean;
  /** Writes console output as fast as TCP takes it, for as long as a connection lasts. */
  floods: boolean;
  /** Accepts a connection and closes it at once (a console that drops every client). */
  dropsAtOnce: boolean;
  /** The cut this game obeys: `shown` follows it (the test's frames show that player). */
  obeys: Obeys;
}

/** 64 KiB of console output in lines, what a flooding console writes again and again. */
const FLOOD_CHUNK = Buffer.alloc(64 * 1024, 'Damage Given to "Bot" - 27 in 1 hit\n');

/** Accepts connections, records every line and all bytes. */
export class ConsoleStandIn {
  readonly lines: string[] = [];
  raw = '';
  connections = 0;
  /** Bytes of flood the kernel has taken from this console (sent or in the socket buffers). */
  flooded = 0;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly behaviour: ConsoleBehaviour;
  port = 0;
  /** Whom the game shows now (null: what the frames showed before any cut it obeyed). */
  shown: Shown = null;
  /** The last choice by name, for a game that needs the lock after it. */
  private chosen: string | null = null;
  private readonly events = new EventEmitter();

  constructor(behaviour: Partial<ConsoleBehaviour> = {}) {
    this.behaviour = { closes: true, floods: false, dropsAtOnce: false, obeys: 'none', ...behaviour };
  }

  /** Resolves once `count` lines have arrived (a test awaits what it sent, no sleeping). */
  async linesReceived(count: number): Promise<void> {
    while (this.lines.length < count) await once(this.events, 'line');
  }

  private obey(line: string): void {
    const named = /^spec_player "(.*)"$/.exec(line)?.[1];
    const id = /^spec_(lock_to_accountid|player_by_accountid) ([0-9]+)$/.exec(line);
    const obeys = this.behaviour.obeys;
    if (named !== undefined) {
      this.chosen = named;
      if (obeys === 'name') this.shown = { name: named };
    } else if (id && obeys === 'csgo' && id[1] === 'player_by_accountid') {
      this.shown = { accountId: Number(id[2]) };
    } else if (id && obeys === 'name_lock' && id[1] === 'lock_to_accountid' && id[2] !== '0' && this.chosen) {
      this.shown = { name: this.chosen };
    }
  }

  async listen(port = 0): Promise<number> {
    const server = createServer({ allowHalfOpen: !this.behaviour.closes }, (socket) => {
      this.connections += 1;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => {});
      if (this.behaviour.dropsAtOnce) {
        socket.destroy();
        return;
      }
      let buffer = '';
      socket.setEncoding('utf8');
      // The real console greets and echoes; the link must cope with output it does not read.
      socket.write('Welcome to the console\r\n');
      socket.on('data', (chunk: string) => {
        this.raw += chunk;
        buffer += chunk;
        let newline = buffer.indexOf('\n');
        while (newline !== -1) {
          const line = buffer.slice(0, newline);
          this.lines.push(line);
          this.obey(line);
          this.events.emit('line');
          buffer = buffer.slice(newline + 1);
          newline = buffer.indexOf('\n');
        }
      });
      if (this.behaviour.floods) this.flood(socket);
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    return this.port;
  }

  /** The game quits: every connection drops and the port stops listening. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private flood(socket: Socket): void {
    const counted = (error?: Error | null) => {
      if (!error) this.flooded += FLOOD_CHUNK.length;
    };
    const pump = () => {
      while (!socket.destroyed && socket.write(FLOOD_CHUNK, counted)) {}
      if (!socket.destroyed) socket.once('drain', pump);
    };
    pump();
  }

  get open(): number {
    return this.sockets.size;
  }
}
