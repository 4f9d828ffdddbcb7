import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SERVICE_ID, VERSION } from '../version.ts';
import { CLOSE, MAX_MESSAGE_BYTES, PING_INTERVAL_MS, PROTOCOL_VERSION } from './protocol.ts';
import { heartbeat, openConnection } from './ws-connection.ts';
import { WsFanout } from './ws-fanout.ts';
import type { WsContext } from './ws-messages.ts';

/** The WebSocket paths: the root (as the spec's {ws_base_url}) and /ws. */
export const WS_PATHS = ['/', '/ws'] as const;

/**
 * The WebSocket at the root path (and /ws): triggers run through the same dispatcher as HTTP,
 * every client-visible change arrives as an event, in revision order.
 */
async function wsPlugin(app: FastifyInstance): Promise<void> {
  const { service } = app;
  await app.register(websocket, { options: { maxPayload: MAX_MESSAGE_BYTES } });
  const fanout = new WsFanout();
  const context: WsContext = {
    service,
    fanout,
    record(client, request, status, error) {
      const entry = { transport: 'ws' as const, request, status, address: client.address };
      const record = error ? { ...entry, error } : entry;
      service.recent.add(record);
      app.log.info(record, 'request');
    },
    fault: (err, action) => app.log.error({ err, action }, 'trigger failed'),
  };

  const broadcast = fanout.broadcast.bind(fanout);
  service.hub.emitter.on('event', broadcast);
  const isRemote = (client: { remote: boolean }) => client.remote;
  const onToken = () => fanout.close(isRemote, CLOSE.unauthorized, 'the access token was regenerated');
  const onSettings = ({ lanMode }: { lanMode: boolean }) => {
    if (!lanMode) fanout.close(isRemote, CLOSE.forbidden, 'local network mode was switched off');
  };
  service.events.on('token', onToken);
  service.events.on('settings', onSettings);
  const pings = setInterval(() => heartbeat(fanout.clients), PING_INTERVAL_MS).unref();

  app.addHook('onClose', async () => {
    clearInterval(pings);
    service.hub.emitter.off('event', broadcast);
    service.events.off('token', onToken);
    service.events.off('settings', onSettings);
    fanout.close(() => true, CLOSE.goingAway, 'the service is stopping');
  });

  const index = async () => ({ ok: true, service: SERVICE_ID, version: VERSION, protocol: PROTOCOL_VERSION });
  for (const url of WS_PATHS) {
    app.route({
      method: 'GET',
      url,
      handler: index,
      wsHandler: (socket, request) => openConnection(context, socket, request),
    });
  }
}

export default fp(wsPlugin, { name: 'websocket', dependencies: ['service'] });
