/**
 * A stand-in for CS2's network console (`-netconport`) on 127.0.0.1: it records every line the
 * observer sends, as the game would read them. Used by test/observer/*.test.ts.
 */
import { createServer, type Server, type Socket } from 'node:net';

/** Accepts connections, records every line and all bytes. */
export class ConsoleStandIn {
  readonly lines: string[] = [];
  raw = '';
  connections = 0;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  async listen(port = 0): Promise<number> {
    const server = createServer((socket) => {
      this.connections += 1;
      this.sockets.add(socket);
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
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => {});
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

  get open(): number {
    return this.sockets.size;
  }
}
