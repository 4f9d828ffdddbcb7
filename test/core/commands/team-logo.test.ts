/**
 * A team logo (the spec's Team.logo, a URL) travels through every answer: the serialisers used to
 * refuse it inside `teamA: Team or null`, and GET /api/match answered 500 once a logo was set.
 */
import { expect, it } from 'vitest';
import { build, command, get } from '../../helpers/build.ts';
import { connect } from '../../helpers/ws-client.ts';

it('set_teams with an https or data logo: the answer, GET /api/match and the match event carry it', async () => {
  const server = await build();
  const client = await connect(server.wsUrl);
  for (const logo of ['https://example.org/logos/navi.png', 'data:image/png;base64,iVBORw0KGgo=']) {
    const set = await command(server, 'set_teams', {
      teamA: { name: 'NAVI', logo },
      teamB: { name: 'FaZe' },
    });
    expect(set.status).toBe(200);
    expect(set.body.result.teamA).toEqual({ name: 'NAVI', logo });
    const match = await get(server, '/api/match');
    expect(match.status).toBe(200);
    expect(match.body.match.teamA).toEqual({ name: 'NAVI', logo });
    await client.waitFor((m) => m.type === 'event' && m.event === 'match' && m.data.teamA?.logo === logo);
  }
});
