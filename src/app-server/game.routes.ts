/**
 * Game data on the application server: the endpoint the game's cfg posts to, and the operator app's
 * Integrations > Game (the cfg, where it is installed, install it). The endpoint is open to this
 * machine, and in LAN mode to the local network (an observer PC); the cfg's auth token in each frame
 * is what lets a frame in.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { checkPayload } from '../core/dispatcher.ts';
import type { CfgTarget } from '../game/gsi-config.ts';
import {
  CFG_FILE_NAME,
  cfgStateIn,
  cfgText,
  defaultSteamRoots,
  findCs2Installs,
  GAME_DATA_PATH,
  installCfgIn,
  lanAddress,
} from '../game/gsi-config.ts';
import { peerOf } from '../http/access-hooks.ts';
import { answers, okAnswer } from '../http/routes/shared.ts';
import { conflict } from '../protocol/errors.ts';
import { GameStatusSchema, InstallStateSchema } from '../protocol/game.ts';
import { strict } from '../protocol/schemas.ts';

/**
 * A ten-player frame is about 10 KB of JSON; 25 grenades with five burning molotovs and the
 * `previously` section make it about 28 KB (test/game/game-data.test.ts). The other routes' 64 KiB
 * would be close once `added` doubles a frame too; 1 MiB leaves room without letting a peer make
 * the server hold much.
 */
export const GAME_FRAME_LIMIT = 1024 * 1024;

const GameSetupSchema = {
  status: GameStatusSchema,
  fileName: Type.String(),
  cfg: Type.String({ description: 'The cfg file for a game on this machine' }),
  lanCfg: Type.Union([Type.String(), Type.Null()], {
    description:
      "The cfg file for a game on another PC (this machine's local-network address); null without one",
  }),
  installs: Type.Array(InstallStateSchema, {
    description: 'CS2 installs found through Steam, and their cfg file',
  }),
};
const checkInstall = TypeCompiler.Compile(Type.Object({ lan: Type.Optional(Type.Boolean()) }, strict));

/**
 * POST /gsi: a frame of the game's Game State Integration, answered at once (the game waits for the
 * answer before it sends more). On both servers: the application server's is the one the cfg names.
 */
export function gameDataRoute(app: FastifyInstance): void {
  app.post(
    GAME_DATA_PATH,
    { bodyLimit: GAME_FRAME_LIMIT, schema: { response: answers(okAnswer({})) } },
    async (request) => {
      app.service.game.ingest(request.body, peerOf(request.socket, request.ip).address);
      return { ok: true as const };
    },
  );
}

const gameRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { service } = app;
  const target = (host: string): CfgTarget => ({
    host,
    appPort: (app.server.address() as AddressInfo | null)?.port ?? 0,
    token: service.game.token,
  });
  /** What Integrations > Game shows; `found`: the installs just scanned, not scanned again. */
  const setup = async (found?: string[]) => {
    const cfg = cfgText(target('127.0.0.1'));
    const lan = lanAddress();
    const installs = found ?? (await findCs2Installs(defaultSteamRoots()));
    return {
      ok: true as const,
      status: service.game.status(),
      fileName: CFG_FILE_NAME,
      cfg,
      lanCfg: lan ? cfgText(target(lan)) : null,
      installs: await Promise.all(installs.map((dir) => cfgStateIn(dir, cfg))),
    };
  };

  gameDataRoute(app);
  app.get('/api/panel/game', { schema: { response: answers(okAnswer(GameSetupSchema)) } }, () => setup());
  app.post(
    '/api/panel/game/install',
    { schema: { response: answers(okAnswer(GameSetupSchema)) } },
    async (request) => {
      const { lan } = checkPayload(
        'game install',
        checkInstall,
        request.body === undefined ? {} : request.body,
      ) as { lan?: boolean };
      const host = lan ? lanAddress() : '127.0.0.1';
      if (!host) throw conflict('this machine has no local-network address: connect it to the network first');
      const installs = await findCs2Installs(defaultSteamRoots());
      if (installs.length === 0) {
        throw conflict(
          'no CS2 install found in the Steam libraries: copy the file into <CS2 folder>/game/csgo/cfg yourself',
        );
      }
      await installCfgIn(installs, cfgText(target(host)));
      return setup(installs);
    },
  );
};

export default fp(gameRoutes, { name: 'game-routes', dependencies: ['service', 'page-access'] });
