import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.ts';
import { listenHostFor } from './http/listen.ts';
import type { Service, ServiceOptions } from './service.ts';
import { startService } from './service.ts';

export const DEFAULT_PORT = 44555;

export interface ServerOptions extends ServiceOptions {
  /** 0 picks a free port. */
  port: number;
  logger: Logger;
}

export interface RunningServer {
  app: FastifyInstance;
  service: Service;
  port: number;
  httpUrl: string;
  wsUrl: string;
  close(): Promise<void>;
}

/** The service and its HTTP/WebSocket server, listening. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const service = await startService(options);
  const app = await buildApp({ service, logger: options.logger });
  app.addHook('onClose', async () => service.close());
  // A request in progress when the server stops gets its answer (forceCloseConnections: 'idle'),
  // then its connection must close: kept alive, it would hold the shutdown until the client hangs up.
  let stopping = false;
  app.addHook('preClose', async () => {
    stopping = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (stopping) reply.header('connection', 'close');
    done(null, payload);
  });
  try {
    await app.listen({ port: options.port, host: listenHostFor(service.settings().lanMode) });
  } catch (error) {
    await app.close();
    if ((error as { code?: string }).code === 'EADDRINUSE')
      throw new Error(
        `port ${options.port} is in use (another hud-automation, or another program): stop it or choose another with --port`,
      );
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  let closed: Promise<void> | null = null;
  return {
    app,
    service,
    port,
    httpUrl: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    close: () => (closed ??= app.close()),
  };
}
