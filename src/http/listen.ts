import type { FastifyInstance } from 'fastify';

/** Loopback only while local network mode is off; every interface (IPv6 and IPv4) while it is on. */
export const listenHostFor = (lanMode: boolean) => (lanMode ? '::' : '127.0.0.1');

/**
 * Moves the listening socket to the addresses the mode wants, on the same port, without a restart.
 * Open connections stay (the WebSocket layer drops remote ones itself when the mode goes off).
 */
export async function rebind(app: FastifyInstance, lanMode: boolean): Promise<void> {
  const server = app.server;
  const address = server.address();
  if (typeof address !== 'object' || address === null) return;
  // close() stops listening at once; its callback would wait for every open connection.
  server.close();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: address.port, host: listenHostFor(lanMode) }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
