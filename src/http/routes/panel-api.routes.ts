/**
 * The panel API, the same on both servers: the recent requests, the access token, the view key, the
 * settings and the subscription switch.
 * The application shell reaches it at /internal/* of the automation server (this machine only), the
 * operator app at /api/panel/* of the application server (signed-in browsers only): the access
 * layers decide who comes in, the settings command decides who may change settings.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Access } from '../../access/access.ts';
import { peerOf } from '../../access/peer.ts';
import type { Secrets } from '../../access/secrets.ts';
import type { Role } from '../../core/caller.ts';
import type { Dispatch } from '../../core/dispatcher.ts';
import { RequestRecordSchema } from '../../protocol/answers.ts';
import type { CommandResultOf } from '../../protocol/commands.ts';
import { answers, okAnswer } from '../../protocol/http-answers.ts';
import { PublicSettingsSchema } from '../../protocol/settings.ts';
import { publicSettings } from '../../settings/settings.ts';
import type { SettingsOwner } from '../../settings/settings-owner.ts';

export const settingsAnswer = answers(okAnswer({ settings: PublicSettingsSchema }));
const tokenAnswer = answers(okAnswer({ token: Type.String() }));
const viewKeyAnswer = answers(
  okAnswer({ viewKey: Type.String({ description: 'The read-only key of the pages that only show' }) }),
);
const keyAnswer = answers(okAnswer({ key: Type.String({ description: 'The new sign-in key' }) }));

export interface PanelApiOptions {
  /** Where the routes are (not `prefix`, which Fastify would add to every path): '/internal' (automation server) or '/api/panel' (application server). */
  base: '/internal' | '/api/panel';
  /** Who calls them there. */
  caller: { transport: 'http' | 'app'; role: Extract<Role, 'shell' | 'operator'> };
  /** The settings command. */
  panel: Dispatch;
  settings: Pick<SettingsOwner, 'current'>;
  secrets: Pick<
    Secrets,
    'token' | 'regenerateToken' | 'regenerateSignInKey' | 'viewKey' | 'regenerateViewKey'
  >;
  access: Pick<Access, 'recent'>;
}

/** Not wrapped in fastify-plugin: the routes need no decorators of the server's scope. */
const panelApiRoutes: FastifyPluginAsyncTypebox<PanelApiOptions> = async (
  app,
  { base, caller, panel, settings, secrets, access },
) => {
  app.get(
    `${base}/requests`,
    { schema: { response: answers(okAnswer({ requests: Type.Array(RequestRecordSchema) })) } },
    async () => ({ ok: true as const, requests: access.recent.list() }),
  );
  app.get(`${base}/token`, { schema: { response: tokenAnswer } }, async () => ({
    ok: true as const,
    token: secrets.token(),
  }));
  app.post(`${base}/token/regenerate`, { schema: { response: tokenAnswer } }, async () => ({
    ok: true as const,
    token: await secrets.regenerateToken(),
  }));
  // The Browser sources card's addresses for another machine carry it (docs/access.md).
  app.get(`${base}/view-key`, { schema: { response: viewKeyAnswer } }, async () => ({
    ok: true as const,
    viewKey: secrets.viewKey(),
  }));
  app.post(`${base}/view-key/regenerate`, { schema: { response: viewKeyAnswer } }, async () => ({
    ok: true as const,
    viewKey: await secrets.regenerateViewKey(),
  }));
  // Every browser signed out; the answer's key makes the new sign-in address (hud-automation app-url).
  app.post(`${base}/sign-in-key/regenerate`, { schema: { response: keyAnswer } }, async () => ({
    ok: true as const,
    key: await secrets.regenerateSignInKey(),
  }));
  // The operator app's subscription switch (Integrations > Observer); the shell also has host_report.
  app.post(
    `${base}/subscription`,
    { schema: { response: answers(okAnswer({ subscriptionActive: Type.Boolean() })) } },
    async (request) => {
      const { result } = await panel('subscription', request.body, {
        ...caller,
        address: peerOf(request.socket, request.ip).address,
      });
      // The dispatcher ran the subscription command, whose contract says what it answers.
      const { subscriptionActive } = result as CommandResultOf<'subscription'>;
      return { ok: true as const, subscriptionActive };
    },
  );
  app.post(`${base}/settings`, { schema: { response: settingsAnswer } }, async (request) => {
    await panel('settings', request.body, { ...caller, address: peerOf(request.socket, request.ip).address });
    return { ok: true as const, settings: publicSettings(settings.current()) };
  });
};

export default panelApiRoutes;
