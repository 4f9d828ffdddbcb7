/**
 * The killfeed from HLAE's mirv_pgl (src/game/hlae-link.ts), over a real socket to the running
 * automation server: a stand-in of the game's client (test/helpers/hlae-stand-in.ts) sends the
 * deaths of the round-sequence fixture as player_death events between its frames, which are posted
 * as the game posts them. The killers, weapons and headshots are the ones the full recording shows
 * (test/game/killfeed.test.ts, RECORDED); a wallbang, a smoke, a blind killer and a flash assist are
 * added, since the recording cannot say.
 */
import { describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { HLAE_CLOSE } from '../../src/automation-server/hlae.routes.ts';
import { PGL_MESSAGE_LIMIT } from '../../src/game/hlae-pgl.ts';
import type { GameKill } from '../../src/protocol/game.ts';
import { HLAE_PATH } from '../../src/protocol/game.ts';
import type { RunningServer } from '../../src/server.ts';
import { build, get } from '../helpers/build.ts';
import type { Frame } from '../helpers/gsi.ts';
import { fixture, postAccepted, ROUND_SEQUENCE } from '../helpers/gsi.ts';
import { Bytes, connectPgl, PglWriter, PLAYER_DEATH, player, WEAPON_FIRE } from '../helpers/hlae-stand-in.ts';

/** The marks of a death only the game's event tells (frames cannot): added here, to see them carried. */
interface Marks {
  penetrated: number;
  thrusmoke: boolean;
  attackerblind: boolean;
  assistedflash: boolean;
}
const NO_MARKS: Marks = { penetrated: 0, thrusmoke: false, attackerblind: false, assistedflash: false };

/** Who killed whom in the fixture's round, as the recording shows it, by victim. */
const TRUTH: Record<
  string,
  { killer: string; assister: string | null; weapon: string; headshot: boolean } & Marks
> = {
  xxx_ajsmokesthembigoledoinks_xxx: {
    killer: 'Big Daddy',
    assister: null,
    weapon: 'ak47',
    headshot: false,
    ...NO_MARKS,
  },
  // Atomic's flash blinded the victim, and AussiePing was blind himself.
  ウソップ: {
    killer: 'AussiePing',
    assister: 'Atomic',
    weapon: 'm4a1',
    headshot: false,
    ...NO_MARKS,
    assistedflash: true,
    attackerblind: true,
  },
  // Through the wall and a smoke.
  'Big Daddy': {
    killer: 'AussiePing',
    assister: null,
    weapon: 'm4a1',
    headshot: true,
    ...NO_MARKS,
    penetrated: 1,
    thrusmoke: true,
  },
  'Nin. [zeus]': { killer: 'Atomic', assister: null, weapon: 'm4a1', headshot: true, ...NO_MARKS },
};

interface Death {
  victim: string;
  victimId: string;
}

/** The players of the fixture: name to steamid and a user id as the game numbers them. */
function rosterOf(frame: Frame) {
  const byName = new Map<string, { steamid: string; userid: number }>();
  Object.entries<Frame>(frame.allplayers).forEach(([steamid, p], i) => {
    byName.set(p.name, { steamid, userid: i + 2 });
  });
  return byName;
}

/** Deaths between frame i-1 and frame i: the players whose deaths counter went up. */
function deathsBefore(frames: Frame[], i: number): Death[] {
  if (i === 0) return [];
  const before = frames[i - 1] as Frame;
  const now = frames[i] as Frame;
  return Object.entries<Frame>(now.allplayers)
    .filter(([steamid, p]) => p.match_stats.deaths > (before.allplayers[steamid]?.match_stats.deaths ?? 99))
    .map(([steamid, p]) => ({ victim: p.name, victimId: steamid }));
}

function deathMessage(writer: PglWriter, roster: ReturnType<typeof rosterOf>, deaths: Death[]): Buffer {
  const out = new Bytes();
  for (const death of deaths) {
    const truth = TRUTH[death.victim];
    if (!truth) throw new Error(`no truth for ${death.victim}`);
    const at = (name: string | null) => {
      const known = name === null ? undefined : roster.get(name);
      return known ? player(known.userid, known.steamid) : player(-1, null);
    };
    // The shot, then the death, as the game fires them.
    writer.event(out, WEAPON_FIRE, {
      userid: at(truth.killer).userid,
      weapon: `weapon_${truth.weapon}`,
      silenced: false,
    });
    writer.event(out, PLAYER_DEATH, {
      userid: at(death.victim),
      attacker: at(truth.killer),
      assister: at(truth.assister),
      weapon: truth.weapon,
      headshot: truth.headshot,
      penetrated: truth.penetrated,
      thrusmoke: truth.thrusmoke,
      attackerblind: truth.attackerblind,
      assistedflash: truth.assistedflash,
      distance: 12.5,
    });
  }
  return out.done();
}

const hlaeUrl = (server: RunningServer) => `${server.wsUrl}${HLAE_PATH}`;

/** Entries seen over the run, by id (the feed itself empties at freeze time). */
function collector(server: RunningServer) {
  const seen = new Map<number, GameKill>();
  return {
    seen,
    take() {
      for (const entry of server.service.game.live().killfeed) seen.set(entry.id, entry);
    },
  };
}

async function linkUp(server: RunningServer) {
  const link = await connectPgl(hlaeUrl(server));
  const writer = new PglWriter();
  link.send(writer.hello().string('dataStart').string('levelInit').string('de_dust2').done());
  await link.setUp();
  await vi.waitFor(() => expect(server.service.game.status().hlae.live).toBe(true));
  return { link, writer };
}

const summary = (entry: GameKill) => ({
  victim: entry.victim.name,
  killer: entry.killer?.name ?? null,
  assister: entry.assister?.name ?? null,
  weapon: entry.weapon,
  headshot: entry.headshot,
  wallbang: entry.wallbang,
  noscope: entry.noscope,
  throughSmoke: entry.throughSmoke,
  attackerBlind: entry.attackerBlind,
  flashAssist: entry.flashAssist,
  round: entry.round,
  source: entry.source,
});

const expected = (source: 'hlae' | 'frames') =>
  Object.entries(TRUTH)
    .map(([victim, t]) => ({
      victim,
      killer: t.killer,
      assister: t.assister,
      weapon: `weapon_${t.weapon}`,
      headshot: t.headshot,
      wallbang: source === 'hlae' ? t.penetrated > 0 : null,
      noscope: source === 'hlae' ? false : null,
      throughSmoke: source === 'hlae' ? t.thrusmoke : null,
      attackerBlind: source === 'hlae' ? t.attackerblind : null,
      flashAssist: source === 'hlae' ? t.assistedflash : null,
      round: 9,
      source,
    }))
    .sort((a, b) => a.victim.localeCompare(b.victim));

const byVictim = (entries: GameKill[]) =>
  entries.map(summary).sort((a, b) => a.victim.localeCompare(b.victim));

describe("the killfeed from HLAE's mirv_pgl", () => {
  it('each death of the round once, from its player_death: killer, victim, weapon, headshot and the other marks right', async () => {
    const frames = (await fixture(ROUND_SEQUENCE)) as Frame[];
    const roster = rosterOf(frames[0] as Frame);
    const server = await build();
    const game = server.service.game;
    expect(game.status().hlae).toMatchObject({ connected: false, live: false });
    expect(game.status().hlae.console).toEqual([
      `mirv_pgl url "ws://127.0.0.1:${server.port}/hlae"`,
      'mirv_pgl start',
    ]);
    await postAccepted(server, frames[0] as Frame);
    const { link, writer } = await linkUp(server);
    // The setup the server sends after hello: events on, player_death's players with their SteamIDs.
    const lines = link.received.filter((m) => m[0] === 'exec').map((m) => m[1]);
    expect(lines).toContain('mirv_pgl events enrich clientTime 1');
    for (const key of ['userid', 'attacker', 'assister'])
      expect(lines).toContain(
        `mirv_pgl events enrich eventProperty "useridWithSteamId" "player_death" "${key}"`,
      );
    expect(lines.at(-1)).toBe('mirv_pgl events enabled 1');
    expect(link.received[0]).toEqual(['transBegin']);

    const feed = collector(server);
    let deaths = 0;
    for (let i = 1; i < frames.length; i++) {
      const now = deathsBefore(frames, i);
      if (now.length > 0) {
        link.send(deathMessage(writer, roster, now));
        deaths += now.length;
        await vi.waitFor(() => expect(game.status().hlae.deaths).toBe(deaths));
        feed.take();
      }
      await postAccepted(server, frames[i] as Frame);
      feed.take();
    }
    expect(deaths).toBe(4);
    const entries = [...feed.seen.values()];
    // Only HLAE's entries while the link is live, one per death.
    expect(byVictim(entries)).toEqual(expected('hlae'));
    expect(entries.map((e) => e.victim.steamid).sort()).toEqual(
      Object.keys(TRUTH)
        .map((name) => roster.get(name)?.steamid)
        .sort(),
    );
    // The freeze time of the next round emptied it.
    expect(game.live().killfeed).toEqual([]);
    expect(game.status().hlae).toMatchObject({
      connected: true,
      live: true,
      source: '127.0.0.1',
      refused: null,
    });
    link.close();
    await vi.waitFor(() => expect(game.status().hlae.connected).toBe(false));
  });

  it('when the link drops, the inferred feed of the round is shown at once and goes on; no death twice', async () => {
    const frames = (await fixture(ROUND_SEQUENCE)) as Frame[];
    const roster = rosterOf(frames[0] as Frame);
    const server = await build();
    const game = server.service.game;
    await postAccepted(server, frames[0] as Frame);
    const { link, writer } = await linkUp(server);
    link.send(deathMessage(writer, roster, deathsBefore(frames, 1)));
    await vi.waitFor(() => expect(game.status().hlae.deaths).toBe(2));
    await postAccepted(server, frames[1] as Frame);
    expect(game.live().killfeed.map((e) => e.source)).toEqual(['hlae', 'hlae']);

    link.close();
    await vi.waitFor(() => expect(game.status().hlae).toMatchObject({ connected: false, live: false }));
    // The same two deaths, now inferred from the frames.
    expect(
      game
        .live()
        .killfeed.map((e) => [e.source, e.victim.name])
        .sort(),
    ).toEqual([
      ['frames', 'xxx_ajsmokesthembigoledoinks_xxx'],
      ['frames', 'ウソップ'],
    ]);
    const feed = collector(server);
    feed.take();
    for (let i = 2; i < frames.length - 1; i++) {
      await postAccepted(server, frames[i] as Frame);
      feed.take();
    }
    expect(byVictim([...feed.seen.values()])).toEqual(expected('frames'));
  });

  const writer = () => new PglWriter();
  const goodDeath = (w: PglWriter) =>
    w.event(new Bytes(), PLAYER_DEATH, {
      userid: player(2, '76561198070435807'),
      attacker: player(3, '76561198310998584'),
      assister: player(-1, null),
      weapon: 'ak47',
    });
  const BAD: Array<{
    what: string;
    message: (w: PglWriter) => Buffer | string;
    code: number;
    reason: RegExp | null;
  }> = [
    { what: 'a text message', message: () => 'hello', code: HLAE_CLOSE.refused, reason: /binary/ },
    { what: 'a second hello', message: (w) => w.hello().done(), code: HLAE_CLOSE.refused, reason: /twice/ },
    {
      what: 'an unknown command',
      message: () => new Bytes().string('rm -rf').done(),
      code: HLAE_CLOSE.refused,
      reason: /unknown command/,
    },
    {
      what: 'a good death followed by a command cut short (the death is not taken)',
      message: (w) => goodDeath(w).string('levelInit').raw(Buffer.from('de_dust')).done(),
      code: HLAE_CLOSE.refused,
      reason: /no terminating null/,
    },
    {
      what: 'an event id never described',
      message: () => new Bytes().string('gameEvent').int32(77).float(1).done(),
      code: HLAE_CLOSE.refused,
      reason: /never described/,
    },
    {
      what: 'a key of an unknown type',
      message: () =>
        new Bytes()
          .string('gameEvent')
          .int32(0)
          .int32(5)
          .string('x')
          .bool(true)
          .string('k')
          .int32(9)
          .bool(false)
          .done(),
      code: HLAE_CLOSE.refused,
      reason: /unknown type 9/,
    },
    {
      what: 'a string over 512 bytes',
      message: () => new Bytes().string('levelInit').string('x'.repeat(600)).done(),
      code: HLAE_CLOSE.refused,
      reason: /longer than 512/,
    },
    {
      what: 'a string that is not UTF-8',
      message: () =>
        new Bytes()
          .string('levelInit')
          .raw(Buffer.from([0xff, 0xfe, 0]))
          .done(),
      code: HLAE_CLOSE.refused,
      reason: /not UTF-8/,
    },
    {
      what: 'a boolean that is 7',
      message: () => new Bytes().string('gameEvent').int32(0).int32(5).string('x').byte(7).done(),
      code: HLAE_CLOSE.refused,
      reason: /not a boolean/,
    },
    {
      what: `a message over ${PGL_MESSAGE_LIMIT} bytes`,
      message: () => Buffer.alloc(PGL_MESSAGE_LIMIT + 1, 65),
      code: 1009,
      reason: null,
    },
  ];

  it.each(BAD)(
    '$what: the link closes with the reason, no entry is added, the server goes on',
    async (bad) => {
      const frames = (await fixture(ROUND_SEQUENCE)) as Frame[];
      const server = await build();
      const game = server.service.game;
      await postAccepted(server, frames[0] as Frame);
      const { link, writer: w } = await linkUp(server);
      link.send(bad.message(w));
      const closed = await link.closed;
      expect(closed.code).toBe(bad.code);
      if (bad.reason) expect(closed.reason).toMatch(bad.reason);
      await vi.waitFor(() => expect(game.status().hlae.connected).toBe(false));
      expect(game.status().hlae.deaths).toBe(0);
      if (bad.reason) expect(game.status().hlae.refused).toMatch(bad.reason);
      expect(game.live().killfeed).toEqual([]);
      expect((await get(server, '/api/state')).status).toBe(200);
      // A new link is taken as before.
      const again = await linkUp(server);
      again.link.send(goodDeath(again.writer).done());
      await vi.waitFor(() => expect(game.status().hlae.deaths).toBe(1));
      expect(game.live().killfeed.map(summary)).toEqual([
        expect.objectContaining({
          victim: 'xxx_ajsmokesthembigoledoinks_xxx',
          killer: 'Big Daddy',
          source: 'hlae',
        }),
      ]);
      expect(game.status().hlae.refused).toBeNull();
    },
  );

  it('commands before hello and another version are refused; a second link replaces the first', async () => {
    const server = await build();
    const game = server.service.game;
    const early = await connectPgl(hlaeUrl(server));
    early.send(goodDeath(writer()).done());
    expect(await early.closed).toMatchObject({ code: HLAE_CLOSE.refused, reason: 'gameEvent before hello' });
    const old = await connectPgl(hlaeUrl(server));
    old.send(writer().hello(3).done());
    expect((await old.closed).reason).toMatch(/version 3/);
    await vi.waitFor(() => expect(game.status().hlae.connected).toBe(false));

    const first = await linkUp(server);
    const second = await linkUp(server);
    expect((await first.link.closed).code).toBe(HLAE_CLOSE.replaced);
    expect(game.status().hlae).toMatchObject({ connected: true, live: true });
    // The server stops with the link open: it says so and does not wait for the game to hang up.
    await server.close();
    expect(await second.link.closed).toEqual({
      code: HLAE_CLOSE.stopping,
      reason: 'the service is stopping',
    });
  });

  it("is under the automation server's access rules: a browser's page (an Origin) cannot open it", async () => {
    const server = await build();
    const status = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`${server.wsUrl}${HLAE_PATH}`, {
        headers: { Origin: 'http://example.com' },
      });
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('open', () => reject(new Error('opened')));
    });
    expect(status).toBe(403);
    expect(server.service.game.status().hlae.connected).toBe(false);
  });
});
