import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import fp from 'fastify-plugin';
import type { TeamsDatabase } from '../../core/teams-database.ts';
import { answers, okAnswer } from '../../protocol/http-answers.ts';
import { PlayerRecordSchema, TeamViewSchema } from '../../protocol/teams.ts';

export interface TeamsRoutesOptions {
  teams: Pick<TeamsDatabase, 'teams' | 'players'>;
}

/** The database of teams and players, read (docs/teams-and-players.md): the commands change it. */
const teamsRoutes: FastifyPluginAsyncTypebox<TeamsRoutesOptions> = async (app, { teams }) => {
  app.get(
    '/api/teams',
    { schema: { response: answers(okAnswer({ teams: Type.Array(TeamViewSchema) })) } },
    async () => ({ ok: true as const, teams: [...teams.teams()] }),
  );
  app.get(
    '/api/players',
    { schema: { response: answers(okAnswer({ players: Type.Array(PlayerRecordSchema) })) } },
    async () => ({ ok: true as const, players: [...teams.players()] }),
  );
};

export default fp(teamsRoutes, { name: 'teams-routes', dependencies: ['error-envelope'] });
