/**
 * A stand-in for CS2's network console (`-netconport`) on 127.0.0.1: it records every line the
 * observer sends, as the game would read them. Used by test/observer/*.test.ts. It can also behave
 * badly, as a hostile console or a broken game would: never close its side, flood, or drop every
 * client at once.
 */
import { createServer, type Server, type Socket } from 'node:net';

export interface ConsoleBehaviour {
  /** false: never closes its side of a connection, not even after the observer's FIN. */
  closes: boolean;
  /** Writes console output as fast as TCP takes it, for as long as a connection lasts. */
  floods: boolean;
  /** Accepts a connection and closes it at once (a console that drops every client). */
  dropsAtOnce: boolean;
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

  constructor(behaviour: Partial<ConsoleBehaviour> = {}) {
    this.behaviour = { closes: true, floods: false, dropsAtOnce: false, ...behaviour };
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
          this.lines.push(buffer.slice(0, newline));
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
