import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveImportTarget } from '../../src/import/import-target.ts';
import { ServiceError } from '../../src/protocol/errors.ts';

const ID = '1-ffb4225f-ff51-42ed-acb5-af6714175934';

describe('resolveImportTarget', () => {
  it.each([
    [`https://www.faceit.com/en/cs2/room/${ID}`, ID],
    [`https://www.faceit.com/en/cs2/room/${ID}/scoreboard`, ID],
    [`https://www.faceit.com/pt-br/cs2/room/${ID}/`, ID],
    [`https://faceit.com/cs2/room/${ID}`, ID],
    [`https://www.faceit.com/de/csgo/room/${ID}`, ID],
    [`https://www.faceit.com/csgo/room/${ID}?tab=overview#top`, ID],
    [`https://WWW.FACEIT.COM/EN/CS2/ROOM/${ID.toUpperCase()}`, ID],
    [`  https://www.faceit.com/en/cs2/room/${ID}  `, ID],
  ])('recognises the FACEIT room %s', (url, matchId) => {
    expect(resolveImportTarget({ url })).toEqual({ provider: 'faceit', matchId });
  });

  it('takes a bare FACEIT match id as platformMatchId', () => {
    expect(resolveImportTarget({ platformMatchId: ID })).toEqual({ provider: 'faceit', matchId: ID });
    expect(resolveImportTarget({ platformMatchId: ` ${ID.toUpperCase()} ` })).toEqual({
      provider: 'faceit',
      matchId: ID,
    });
  });

  it.each([
    [
      'https://www.hltv.org/matches/2388130/vitality-vs-faze-starladder-budapest-major-2025',
      '2388130',
      '/matches/2388130/vitality-vs-faze-starladder-budapest-major-2025',
    ],
    [
      'https://hltv.org/matches/2388098/b8-vs-falcons-starladder-budapest-major-2025/',
      '2388098',
      '/matches/2388098/b8-vs-falcons-starladder-budapest-major-2025',
    ],
    [
      'http://www.hltv.org/matches/2388127/furia-vs-natus-vincere?x=1#veto',
      '2388127',
      '/matches/2388127/furia-vs-natus-vincere',
    ],
  ])('recognises the HLTV match page %s', (url, matchId, path) => {
    expect(resolveImportTarget({ url })).toEqual({ provider: 'hltv', matchId, path });
  });

  it.each([
    ['neither field', {}, /neither url nor platformMatchId/],
    ['both fields', { url: `https://www.faceit.com/en/cs2/room/${ID}`, platformMatchId: ID }, /both/],
    ['blank strings only', { url: '  ', platformMatchId: '' }, /neither/],
    ['not a URL', { url: 'faceit room 1' }, /is not a URL/],
    ['ftp scheme', { url: `ftp://www.faceit.com/en/cs2/room/${ID}` }, /not an http\(s\) address/],
    [
      'another host',
      { url: `https://www.faceit.com.evil.example/en/cs2/room/${ID}` },
      /neither a FACEIT nor an HLTV/,
    ],
    [
      'a FACEIT look-alike host',
      { url: `https://notfaceit.com/en/cs2/room/${ID}` },
      /neither a FACEIT nor an HLTV/,
    ],
    [
      'a FACEIT page that is not a room',
      { url: 'https://www.faceit.com/en/players/s1mple' },
      /not a FACEIT match room/,
    ],
    [
      'a FACEIT room of another game',
      { url: `https://www.faceit.com/en/dota2/room/${ID}` },
      /not a FACEIT match room/,
    ],
    ['a FACEIT room without id', { url: 'https://www.faceit.com/en/cs2/room/' }, /not a FACEIT match room/],
    [
      'a FACEIT room with a broken id',
      { url: 'https://www.faceit.com/en/cs2/room/1-ffb4225f' },
      /not a FACEIT match room/,
    ],
    [
      'an HLTV page that is not a match',
      { url: 'https://www.hltv.org/team/9565/vitality' },
      /not an HLTV match page/,
    ],
    ['an HLTV match without slug', { url: 'https://www.hltv.org/matches/2388130' }, /not an HLTV match page/],
    [
      'an HLTV match with a non-numeric id',
      { url: 'https://www.hltv.org/matches/abc/x' },
      /not an HLTV match page/,
    ],
    [
      'platformMatchId that is a URL',
      { platformMatchId: `https://www.faceit.com/en/cs2/room/${ID}` },
      /is not a FACEIT match id/,
    ],
    ['platformMatchId of a number', { platformMatchId: 2388130 }, /platformMatchId must be a string/],
    ['url of a number', { url: 42 }, /url must be a string/],
    ['null payload', null, /payload must be an object/],
  ])('refuses %s with invalid_payload naming what is accepted', (_, payload, message) => {
    const attempt = () => resolveImportTarget(payload as never);
    expect(attempt).toThrow(ServiceError);
    expect(attempt).toThrow(message);
    expect(attempt).toThrow(/send url \(a FACEIT room .* or an HLTV match page .*\) or platformMatchId/);
    try {
      attempt();
    } catch (error) {
      expect((error as ServiceError).code).toBe('invalid_payload');
      expect((error as ServiceError).status).toBe(400);
    }
  });

  it('never throws anything but a ServiceError invalid_payload, whatever the payload', () => {
    const faceitish = fc
      .tuple(
        fc.constantFrom('https://www.faceit.com/', 'https://faceit.com/', 'http://www.faceit.com/'),
        fc.string(),
      )
      .map(([base, rest]) => base + rest);
    const hltvish = fc
      .tuple(fc.constantFrom('https://www.hltv.org/matches/', 'https://hltv.org/'), fc.string())
      .map(([base, rest]) => base + rest);
    const field = fc.oneof(fc.string(), fc.webUrl(), faceitish, hltvish, fc.anything());
    const payload = fc.oneof(
      fc.record({ url: field, platformMatchId: field }, { requiredKeys: [] }),
      fc.anything(),
    );
    fc.assert(
      fc.property(payload, (input) => {
        try {
          const target = resolveImportTarget(input as never);
          expect(['faceit', 'hltv']).toContain(target.provider);
        } catch (error) {
          expect(error).toBeInstanceOf(ServiceError);
          expect((error as ServiceError).code).toBe('invalid_payload');
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('finds the id in any FACEIT room URL, whatever the language and trailing path', () => {
    const language = fc.constantFrom('', 'en/', 'de/', 'pt-br/', 'zh-hans/');
    const game = fc.constantFrom('cs2', 'csgo');
    const tail = fc.constantFrom('', '/', '/scoreboard', '/scoreboard?x=1', '#chat');
    fc.assert(
      fc.property(fc.uuid(), language, game, tail, (uuid, lang, g, rest) => {
        const matchId = `1-${uuid}`;
        const target = resolveImportTarget({
          url: `https://www.faceit.com/${lang}${g}/room/${matchId}${rest}`,
        });
        expect(target).toEqual({ provider: 'faceit', matchId });
      }),
    );
  });
});
