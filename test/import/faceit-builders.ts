/**
 * FACEIT answers built from the real Data API v4 fixtures: a democracy history with chosen votes
 * (no real history pairs with the fixture matches) and the internal match v2 shape of a match.
 */

export type DataApiMatch = {
  match_id: string;
  status: string;
  best_of: number;
  scheduled_at?: number;
  started_at?: number;
  teams: Record<string, { faction_id: string; name: string; avatar: string }>;
  voting?: unknown;
  [key: string]: unknown;
};

export type Vote = [map: string, status: 'drop' | 'pick', by: 'faction1' | 'faction2'];

export const dataApiPath = (id: string) => `/data/v4/matches/${id}`;
export const matchV2Path = (id: string) => `/api/match/v2/match/${id}`;
export const historyPath = (id: string) => `/api/democracy/v1/match/${id}/history`;

/** A democracy history: a server-location ticket (ignored by the importer) and the map ticket. */
export function history(matchId: string, votes: Vote[]) {
  return {
    payload: {
      match_id: matchId,
      tickets: [
        {
          entities: [{ guid: 'Chicago', status: 'pick', random: false, round: 1, selected_by: 'faction1' }],
          entity_type: 'location',
          vote_type: 'drop_pick',
        },
        {
          entities: votes.map(([guid, status, by], index) => ({
            guid,
            status,
            random: false,
            round: index + 1,
            selected_by: by,
          })),
          entity_type: 'map',
          vote_type: 'drop_pick',
        },
      ],
    },
  };
}

/** The internal match v2 answer (`{ code, result, payload }`, camelCase, format in matchCustom) for a Data API object. */
export function asMatchV2(match: DataApiMatch) {
  const faction = (key: 'faction1' | 'faction2') => {
    const team = match.teams[key];
    if (team === undefined) throw new Error(`fixture has no ${key}`);
    return { id: team.faction_id, name: team.name, avatar: team.avatar, roster: [] };
  };
  const iso = (seconds: number | undefined) => (seconds ? new Date(seconds * 1000).toISOString() : undefined);
  return {
    code: 'OPERATION-OK',
    result: 'OK',
    payload: {
      id: match.match_id,
      state: match.status,
      status: match.status,
      teams: { faction1: faction('faction1'), faction2: faction('faction2') },
      voting: match.voting,
      matchCustom: { overview: { round: { to_play: match.best_of, to_win: Math.ceil(match.best_of / 2) } } },
      ...(match.scheduled_at ? { scheduledAt: iso(match.scheduled_at) } : {}),
      ...(match.started_at ? { startedAt: iso(match.started_at) } : {}),
    },
  };
}
