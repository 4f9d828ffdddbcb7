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
  try {
    await app.listen({ port: options.port, host: listenHostFor(service.settings().lanMode) });
  } catch (error) {
    // Saves and lets go of the data directory's lock.
    await app.close().catch(() => {});
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  await service.announcePort(port);
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
