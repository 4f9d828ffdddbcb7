/**
 * Game data on the application server: the endpoint the game's cfg posts to, and the operator app's
 * Integrations > Game (the cfg, where it is installed, install it). The endpoint is open to this
 * machine, and in LAN mode to the local network (an observer PC); the cfg's auth token in each frame
 * is what lets a frame in, and a device's frames refused for it draw on its request budget.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import fp from 'fastify-plugin';
import type { RateLimit } from '../access/rate-limit.ts';
import { checkPayload } from '../core/dispatcher.ts';
import { gameDataRoute } from '../game/game-data.route.ts';
import type { GameData } from '../game/game-data.ts';
import type { CfgTarget } from '../game/gsi-config.ts';
import {
  CFG_FILE_NAME,
  cfgStateIn,
  cfgText,
  defaultSteamRoots,
  findCs2Installs,
  installCfgIn,
  lanAddress,
} from '../game/gsi-config.ts';
import { compiledCheck } from '../protocol/compiled-check.ts';
import { conflict } from '../protocol/errors.ts';
import { GameSetupSchema } from '../protocol/game.ts';
import { answers, okAnswer } from '../protocol/http-answers.ts';
import { strict } from '../protocol/schemas.ts';

const checkInstall = compiledCheck(Type.Object({ lan: Type.Optional(Type.Boolean()) }, strict));

/** Integrations > Game of the operator app, and the game's own endpoint. */
const gameRoutes: FastifyPluginAsyncTypebox<{
  game: GameData;
  rateLimit: RateLimit;
  /** Whether local-network devices may connect, and the access token they carry (HLAE's link). */
  lanAccess: () => { lanMode: boolean; token: string };
}> = async (app, { game, rateLimit, lanAccess }) => {
  const target = (host: string): CfgTarget => ({
    host,
    appPort: (app.server.address() as AddressInfo | null)?.port ?? 0,
    token: game.token,
  });
  /** What Integrations > Game shows; `found`: the installs just scanned, not scanned again. */
  const setup = async (found?: string[]) => {
    const cfg = cfgText(target('127.0.0.1'));
    const lan = lanAddress();
    const installs = found ?? (await findCs2Installs(defaultSteamRoots()));
    const { lanMode, token } = lanAccess();
    const hlaeLanConsole = lan && lanMode ? game.hlaeConsoleFrom(lan, token) : [];
    return {
      ok: true as const,
      status: game.status(),
      fileName: CFG_FILE_NAME,
      cfg,
      lanCfg: lan ? cfgText(target(lan)) : null,
      installs: await Promise.all(installs.map((dir) => cfgStateIn(dir, cfg))),
      hlaeLanConsole: hlaeLanConsole.length > 0 ? hlaeLanConsole : null,
    };
  };

  gameDataRoute(app, game, rateLimit);
  app.get('/api/panel/game', { schema: { response: answers(okAnswer(GameSetupSchema.properties)) } }, () =>
    setup(),
  );
  app.post(
    '/api/panel/game/install',
    { schema: { response: answers(okAnswer(GameSetupSchema.properties)) } },
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

export default fp(gameRoutes, { name: 'game-routes', dependencies: ['page-access'] });
