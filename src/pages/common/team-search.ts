/**
 * The Match view's and the Teams & players tab's search of the database (issue 34): what an operator
 * types, against names and tags, any case, any accent; a name that starts with it comes before one
 * that holds it. Runs on each keystroke in the page: the folded texts are made once per list the
 * server sent (kept beside it), so a keystroke only compares; 64 teams and 500 players answer well
 * within a frame (bench part "teams", docs/performance.md).
 */
import type { PlayerRecord, TeamView } from '../../protocol/teams.ts';

/** Lower case without accents: "Énce" and "ence" meet. */
export const foldForSearch = (text: string): string =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('en');

/** The folded texts of each list, made on its first search: a new list from the server is a new array. */
const folded = new WeakMap<readonly object[], string[][]>();

function ranked<T extends object>(
  entries: readonly T[],
  query: string,
  keys: (entry: T) => string[],
  limit: number,
): T[] {
  const needle = foldForSearch(query.trim());
  if (needle === '') return entries.slice(0, limit);
  let texts = folded.get(entries);
  if (!texts) {
    texts = entries.map((entry) => keys(entry).map(foldForSearch));
    folded.set(entries, texts);
  }
  const starts: T[] = [];
  const holds: T[] = [];
  for (let i = 0; i < entries.length; i++) {
    const own = texts[i] as string[];
    if (own.some((text) => text.startsWith(needle))) starts.push(entries[i] as T);
    else if (holds.length < limit && own.some((text) => text.includes(needle))) holds.push(entries[i] as T);
  }
  return [...starts.slice(0, limit), ...holds].slice(0, limit);
}

export const searchTeams = (teams: readonly TeamView[], query: string, limit = 8): TeamView[] =>
  ranked(teams, query, (team) => [team.name, team.tag ?? ''], limit);

export const searchPlayers = (players: readonly PlayerRecord[], query: string, limit = 20): PlayerRecord[] =>
  ranked(players, query, (player) => [player.name, player.realName, player.steamid ?? ''], limit);
