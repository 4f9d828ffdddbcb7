import { once } from 'node:events';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocketServer } from 'ws';
import type { Grant } from '../access/grant.ts';
import { formatRecord } from '../access/recent-requests.ts';
import type { Notices, SecretName } from '../core/notices.ts';
import type { GameMessage } from '../protocol/game.ts';
import type { Settings } from '../protocol/settings.ts';
import type { PanelStatus } from '../protocol/streams.ts';
import { CLOSE, MAX_MESSAGE_BYTES, PING_INTERVAL_MS, PROTOCOL_VERSION } from '../protocol/websocket.ts';
import { SERVICE_ID, VERSION } from '../version.ts';
import { heartbeat, openConnection } from './ws-connection.ts';
import type { WsClient } from './ws-fanout.ts';
import { WsFanout, wantsGame } from './ws-fanout.ts';
import type { WsContext, WsDeps } from './ws-messages.ts';

/**
 * The WebSocket at the root path (and /ws): triggers run through the same dispatcher as HTTP,
 * every client-visible change arrives as an event, in revision order.
 */
declare module 'fastify' {
  interface FastifyRequest {
    /** What the request's credential allows (src/access/grant.ts); the automation server's are all full. */
    grant: Grant;
  }
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

/**
 * The application server's operator app pages: the panel status (it may change when a server opens
 * or closes its port: the bus's `panel.changed`).
 */
export interface PanelFeed {
  status(): Omit<PanelStatus, 'overlayPages'>;
}

export interface WsOptions {
  /** How the recent-requests list names this server's connections, and whose callers they are. */
  transport: 'ws' | 'app';
  /** Where the WebSocket answers (an upgrade anywhere else is 404 before it happens). */
  paths: ReadonlySet<string>;
  deps: WsDeps;
  /**
   * The application server's panel feed: signed-in operator app pages get the panel events and are
   * signed out when the sign-in key changes. Null on the automation server.
   */
  panel: PanelFeed | null;
}

async function wsPlugin(app: FastifyInstance, { transport, paths, deps, panel }: WsOptions): Promise<void> {
  const { hub, notices, settings, access } = deps;
  const fanout = new WsFanout();
  // The application server's access checks narrow it (page-access.plugin.ts).
  app.decorateRequest('grant', 'full');
  const isOverlayPage = (client: WsClient) => client.role === 'overlay' && client.authenticated;
  // The overlay pages are this gateway's own connections: it counts them into the status.
  const statusNow = panel
    ? (): PanelStatus => ({ ...panel.status(), overlayPages: fanout.count(isOverlayPage) })
    : null;
  await app.register(websocket, {
    options: { maxPayload: MAX_MESSAGE_BYTES },
    // Replaces the plugin's own preClose, which closes every socket without a code (clients saw 1005).
    preClose(this: FastifyInstance) {
      return sayGoodbye(fanout, this.websocketServer);
    },
  });
  const context: WsContext = {
    deps,
    transport,
    fanout,
    panelStatus: statusNow,
    record(client, request, failure) {
      const entry = { transport, request, status: failure?.status ?? 200, address: client.address };
      const record = failure ? { ...entry, error: failure.code, message: failure.message } : entry;
      access.recent.add(record);
      app.log.debug(record, 'request');
    },
    fault: (err, action) => app.log.error({ err, action }, 'trigger failed'),
  };

  const broadcast = fanout.broadcast.bind(fanout);
  hub.emitter.on('event', broadcast);
  const broadcastGame = (message: GameMessage) => fanout.broadcast(message, wantsGame);
  notices.on('game.message', broadcastGame);
  const isRemote = (client: { remote: boolean }) => client.remote;
  const holdsToken = (client: WsClient) => client.remote && client.grant === 'full';
  const holdsViewKey = (client: WsClient) => client.remote && client.grant === 'view';
  const onSecret = (name: SecretName) => {
    if (name === 'token') fanout.close(holdsToken, CLOSE.unauthorized, 'the access token was regenerated');
    if (name === 'viewKey') fanout.close(holdsViewKey, CLOSE.unauthorized, 'the view key was regenerated');
  };
  // The branding travels with the state (the hub's `branding` event, with its revision).
  const onSettings = (next: Settings) => {
    if (!next.lanMode) fanout.close(isRemote, CLOSE.forbidden, 'local network mode was switched off');
  };
  notices.on('secret.regenerated', onSecret);
  const stopSettings = settings.onChange(onSettings);
  const pings = setInterval(() => heartbeat(fanout.clients), PING_INTERVAL_MS).unref();
  const stopPanel = statusNow ? feedPanels(statusNow, fanout, deps) : () => {};

  app.decorate('closeSockets', (code: number, reason: string) => fanout.close(() => true, code, reason));

  app.addHook('onClose', async () => {
    clearInterval(pings);
    hub.emitter.off('event', broadcast);
    notices.off('game.message', broadcastGame);
    notices.off('secret.regenerated', onSecret);
    stopSettings();
    stopPanel();
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
        if (statusNow && new URL(request.url, 'http://l').searchParams.get('role') === 'overlay') {
          const send = () => sendPanelStatus(statusNow, fanout, hub);
          send();
          socket.once('close', send);
        }
      },
    });
  }
}

const isPanel = (client: WsClient) => client.panel;

/** The panel status to every signed-in operator app page, when one is connected. */
function sendPanelStatus(statusNow: () => PanelStatus, fanout: WsFanout, hub: WsDeps['hub']): void {
  if (fanout.count(isPanel) === 0) return;
  fanout.broadcast(
    { type: 'event', event: 'panel.status', revision: hub.revision, data: statusNow() },
    isPanel,
  );
}

/**
 * The application server's operator app pages: the panel status when it changes, each answered
 * request for the recent-requests list, and signed out when the sign-in key changes.
 */
function feedPanels(statusNow: () => PanelStatus, fanout: WsFanout, deps: WsDeps): () => void {
  const { hub, settings, notices } = deps;
  const send = () => sendPanelStatus(statusNow, fanout, hub);
  const onSecret = (name: SecretName) => {
    if (name === 'signInKey')
      fanout.close(isPanel, CLOSE.unauthorized, 'signed out: the sign-in key was regenerated');
  };
  const stopSettings = settings.onChange(send);
  notices.on('panel.changed', send);
  notices.on('secret.regenerated', onSecret);
  const onSessionEnded = (id: string) =>
    fanout.close(
      (client) => client.session === id,
      CLOSE.unauthorized,
      "signed out: this browser's session was ended",
    );
  notices.on('session.ended', onSessionEnded);
  const onRequest = ({ record, at }: Notices['request.recorded']) => {
    if (fanout.count(isPanel) === 0) return;
    fanout.broadcast(
      {
        type: 'event',
        event: 'panel.request',
        revision: hub.revision,
        data: { record: formatRecord(record, at) },
      },
      isPanel,
    );
  };
  notices.on('request.recorded', onRequest);
  return () => {
    stopSettings();
    notices.off('panel.changed', send);
    notices.off('secret.regenerated', onSecret);
    notices.off('session.ended', onSessionEnded);
    notices.off('request.recorded', onRequest);
  };
}

export default fp(wsPlugin, { name: 'websocket' });
