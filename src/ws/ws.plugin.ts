import { once } from 'node:events';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocketServer } from 'ws';
import { formatRecord } from '../access/recent-requests.ts';
import type { Settings } from '../protocol/settings.ts';
import type { PanelStatus } from '../protocol/websocket.ts';
import { CLOSE, MAX_MESSAGE_BYTES, PING_INTERVAL_MS, PROTOCOL_VERSION } from '../protocol/websocket.ts';
import { brandingOf } from '../settings/settings.ts';
import { SERVICE_ID, VERSION } from '../version.ts';
import { heartbeat, openConnection } from './ws-connection.ts';
import type { WsClient } from './ws-fanout.ts';
import { WsFanout } from './ws-fanout.ts';
import type { WsContext } from './ws-messages.ts';

/**
 * The WebSocket at the root path (and /ws): triggers run through the same dispatcher as HTTP,
 * every client-visible change arrives as an event, in revision order.
 */
declare module 'fastify' {
  interface FastifyInstance {
    /** Closes every WebSocket of this server with a code and a reason (the server is switched off). */
    closeSockets(code: number, reason: string): void;
  }
}

/** How long a shutdown waits for clients to answer the close frame before it drops them. */
const GOODBYE_MS = 1000;

/**
 * Closes every client with 1001 and a reason before Fastify stops the HTTP server (preClose: by
 * onClose their sockets may already be gone), and waits for the close handshakes, briefly.
 */
async function sayGoodbye(fanout: WsFanout, server: WebSocketServer): Promise<void> {
  server.close();
  const sockets = [...fanout.clients].map((client) => client.socket);
  // Every socket in the set is open or closing: each still emits 'close'.
  const closed = Promise.all(sockets.map((socket) => once(socket, 'close')));
  fanout.close(() => true, CLOSE.goingAway, 'the service is stopping');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, GOODBYE_MS);
  });
  await Promise.race([closed, late]);
  clearTimeout(timer);
  for (const socket of sockets) socket.terminate();
}

export interface WsOptions {
  /** How the recent-requests list names this server's connections. */
  transport: 'ws' | 'app';
  /** Where the WebSocket answers (an upgrade anywhere else is 404 before it happens). */
  paths: ReadonlySet<string>;
  /** The application server: signed-in operator app pages get the panel events, this first. */
  panelStatus?: () => Omit<PanelStatus, 'overlayPages'>;
}

async function wsPlugin(app: FastifyInstance, { transport, paths, panelStatus }: WsOptions): Promise<void> {
  const { service } = app;
  const fanout = new WsFanout();
  const isOverlayPage = (client: WsClient) => client.role === 'overlay' && client.authenticated;
  // The overlay pages are this gateway's own connections: it counts them into the status.
  const statusNow = panelStatus
    ? (): PanelStatus => ({ ...panelStatus(), overlayPages: fanout.count(isOverlayPage) })
    : null;
  await app.register(websocket, {
    options: { maxPayload: MAX_MESSAGE_BYTES },
    // Replaces the plugin's own preClose, which closes every socket without a code (clients saw 1005).
    preClose(this: FastifyInstance) {
      return sayGoodbye(fanout, this.websocketServer);
    },
  });
  const context: WsContext = {
    service,
    fanout,
    panelStatus: statusNow,
    record(client, request, status, error) {
      const entry = { transport, request, status, address: client.address };
      const record = error ? { ...entry, error } : entry;
      service.recent.add(record);
      app.log.debug(record, 'request');
    },
    fault: (err, action) => app.log.error({ err, action }, 'trigger failed'),
  };

  const broadcast = fanout.broadcast.bind(fanout);
  service.hub.emitter.on('event', broadcast);
  service.game.emitter.on('message', broadcast);
  const isRemote = (client: { remote: boolean }) => client.remote;
  const onToken = () => fanout.close(isRemote, CLOSE.unauthorized, 'the access token was regenerated');
  let brandingSent = JSON.stringify(brandingOf(service.settings()));
  const onSettings = (settings: Settings) => {
    if (!settings.lanMode) fanout.close(isRemote, CLOSE.forbidden, 'local network mode was switched off');
    // The pages show the branding: a change reaches them at once, as a notification.
    const branding = brandingOf(settings);
    const text = JSON.stringify(branding);
    if (text === brandingSent) return;
    brandingSent = text;
    fanout.broadcast({ type: 'event', event: 'branding', revision: service.hub.revision, data: branding });
  };
  service.events.on('token', onToken);
  service.events.on('settings', onSettings);
  const pings = setInterval(() => heartbeat(fanout.clients), PING_INTERVAL_MS).unref();
  const isPanel = (client: WsClient) => client.panel;
  // The application server: panel events to the operator app, sign-in key changes sign it out.
  const sendPanelStatus = () => {
    if (!statusNow || fanout.count(isPanel) === 0) return;
    const data = statusNow();
    fanout.broadcast({ type: 'event', event: 'panel.status', revision: service.hub.revision, data }, isPanel);
  };
  const onSignInKey = () =>
    fanout.close(isPanel, CLOSE.unauthorized, 'signed out: the sign-in key was regenerated');
  if (panelStatus) {
    service.events.on('settings', sendPanelStatus);
    service.events.on('panel', sendPanelStatus);
    service.events.on('signInKey', onSignInKey);
    service.recent.onAdd = (record, at) => {
      if (fanout.count(isPanel) === 0) return;
      fanout.broadcast(
        {
          type: 'event',
          event: 'panel.request',
          revision: service.hub.revision,
          data: { record: formatRecord(record, at) },
        },
        isPanel,
      );
    };
  }

  app.decorate('closeSockets', (code: number, reason: string) => fanout.close(() => true, code, reason));

  app.addHook('onClose', async () => {
    clearInterval(pings);
    service.hub.emitter.off('event', broadcast);
    service.game.emitter.off('message', broadcast);
    service.events.off('token', onToken);
    service.events.off('settings', onSettings);
    if (panelStatus) {
      service.events.off('settings', sendPanelStatus);
      service.events.off('panel', sendPanelStatus);
      service.events.off('signInKey', onSignInKey);
      service.recent.onAdd = null;
    }
  });

  const index = async () => ({ ok: true, service: SERVICE_ID, version: VERSION, protocol: PROTOCOL_VERSION });
  for (const url of paths) {
    app.route({
      method: 'GET',
      url,
      handler: index,
      wsHandler: (socket, request) => {
        openConnection(context, socket, request);
        // Overlay pages come and go: the operator app shows how many are connected.
        if (panelStatus && new URL(request.url, 'http://l').searchParams.get('role') === 'overlay') {
          sendPanelStatus();
          socket.once('close', sendPanelStatus);
        }
      },
    });
  }
}

export default fp(wsPlugin, { name: 'websocket', dependencies: ['service'] });
