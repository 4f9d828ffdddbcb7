import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Service } from '../service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one service behind every route and the WebSocket: dispatcher, hub, settings. */
    service: Service;
  }
}

async function servicePlugin(app: FastifyInstance, { service }: { service: Service }): Promise<void> {
  app.decorate('service', service);
}

export default fp(servicePlugin, { name: 'service' });
