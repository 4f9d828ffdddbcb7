import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import {
  currentSourceServer,
  failureOf,
  fixtureText,
  html,
  importerFor,
  type Route,
} from './source-server.ts';

const BO1 = {
  file: 'hltv_match_2388098_b8-vs-falcons_bo1__qa-hltv-parser__teamsbox-and-maps.html',
  path: '/matches/2388098/b8-vs-falcons-starladder-budapest-major-2025',
};
const BO3 = {
  file: 'hltv_match_2388127_furia-vs-natus-vincere_bo3_quarterfinal__qa-hltv-parser__teamsbox-and-maps.html',
  path: '/matches/2388127/furia-vs-natus-vincere-starladder-budapest-major-2025',
};
const BO5 = {
  file: 'hltv_match_2388130_vitality-vs-faze_bo5_grand-final__qa-hltv-parser__teamsbox-and-maps.html',
  path: '/matches/2388130/vitality-vs-faze-starladder-budapest-major-2025',
};

async function importFrom(routes: Record<string, Route>, path: string) {
  const importer = await importerFor(routes);
  return importer.importMatch({ url: `https://www.hltv.org${path}` });
}

describe('HLTV import of the Budapest Major 2025 pages', () => {
  it('reads the bo1 B8 vs Falcons: six removals in the order the page gives, Ancient left over', async () => {
    const veto = await importFrom({ [BO1.path]: html(fixtureText(BO1.file)) }, BO1.path);
    expect(veto).toEqual({
      provider: 'hltv',
      matchId: '2388098',
      teamA: {
        name: 'B8',
        logo: 'https://img-cdn.hltv.org/teamlogo/O6nRWTCjUzBAR4pcOcrpSG.png?ixlib=java-2.1.0&w=100&s=e5dd0702ea2c42631fef0b0389f1abf4',
      },
      teamB: {
        name: 'Falcons',
        logo: 'https://img-cdn.hltv.org/teamlogo/4eJSkDQINNM6Tbs4WvLzkN.png?ixlib=java-2.1.0&w=100&s=01e7f9dd30b34e66f429f43627c2e005',
      },
      boFormat: 'bo1',
      steps: [
        { type: 'ban', team: 'A', map: 'de_nuke' },
        { type: 'ban', team: 'A', map: 'de_dust2' },
        { type: 'ban', team: 'B', map: 'de_overpass' },
        { type: 'ban', team: 'B', map: 'de_mirage' },
        { type: 'ban', team: 'B', map: 'de_inferno' },
        { type: 'ban', team: 'A', map: 'de_train' },
        { type: 'decider', map: 'de_ancient' },
      ],
      matchTime: '2025-12-04T15:40:00.000Z',
    });
    expect(currentSourceServer()?.requests.map((request) => request.path)).toEqual([BO1.path]);
  });

  it('reads the bo3 FURIA vs Natus Vincere quarter-final: ban, ban, pick, pick, ban, ban, Train left over', async () => {
    const veto = await importFrom({ [BO3.path]: html(fixtureText(BO3.file)) }, BO3.path);
    expect(veto.teamA.name).toBe('FURIA');
    expect(veto.teamB.name).toBe('Natus Vincere');
    expect(veto.teamA.logo).toMatch(/^https:\/\/img-cdn\.hltv\.org\/teamlogo\/mvNQc4csFGtxXk5guAh8m1\.svg/);
    expect(veto.boFormat).toBe('bo3');
    expect(veto.steps).toEqual([
      { type: 'ban', team: 'B', map: 'de_overpass' },
      { type: 'ban', team: 'A', map: 'de_ancient' },
      { type: 'pick', team: 'B', map: 'de_mirage' },
      { type: 'pick', team: 'A', map: 'de_inferno' },
      { type: 'ban', team: 'A', map: 'de_dust2' },
      { type: 'ban', team: 'B', map: 'de_nuke' },
      { type: 'decider', map: 'de_train' },
    ]);
    expect(veto.matchTime).toBe('2025-12-12T19:00:00.000Z');
  });

  it('reads the bo5 Vitality vs FaZe grand final: two bans, four picks, Mirage left over', async () => {
    const veto = await importFrom({ [BO5.path]: html(fixtureText(BO5.file)) }, BO5.path);
    expect(veto).toMatchObject({
      provider: 'hltv',
      matchId: '2388130',
      teamA: { name: 'Vitality' },
      teamB: { name: 'FaZe' },
      boFormat: 'bo5',
      matchTime: '2025-12-14T17:00:00.000Z',
    });
    // The day-only logo, not the night variant printed next to it.
    expect(veto.teamA.logo).toContain('ogcHrcCdzRvxbYvAz04KAN');
    expect(veto.steps).toEqual([
      { type: 'ban', team: 'B', map: 'de_train' },
      { type: 'ban', team: 'A', map: 'de_ancient' },
      { type: 'pick', team: 'B', map: 'de_nuke' },
      { type: 'pick', team: 'A', map: 'de_dust2' },
      { type: 'pick', team: 'B', map: 'de_inferno' },
      { type: 'pick', team: 'A', map: 'de_overpass' },
      { type: 'decider', map: 'de_mirage' },
    ]);
  });
});

describe('HLTV pages without a usable veto', () => {
  /** A fixture page edited with cheerio, the way HLTV shows it at another moment. */
  function edited(file: string, edit: ($: ReturnType<typeof load>) => void): string {
    const $ = load(fixtureText(file));
    edit($);
    return $.html();
  }

  it('answers 409 while the page has only the format box (veto not published yet)', async () => {
    const page = edited(BO3.file, ($) => $('div.veto-box').eq(1).remove());
    const error = await failureOf(importFrom({ [BO3.path]: html(page) }, BO3.path));
    expect(error.code).toBe('conflict');
    expect(error.status).toBe(409);
    expect(error.message).toContain('HLTV has not published the veto of match 2388127 yet');
  });

  it('answers 409, not 502, for an upcoming match whose teams are both still TBD', async () => {
    const page = edited(BO3.file, ($) => {
      $('div.veto-box').eq(1).remove();
      $('div.teamsBox .teamName').text('TBD');
    });
    const error = await failureOf(importFrom({ [BO3.path]: html(page) }, BO3.path));
    expect(error.code).toBe('conflict');
  });

  it('answers 409 while the veto has no left-over map yet', async () => {
    const page = edited(BO3.file, ($) => $('div.veto-box').eq(1).find('div.padding > div').last().remove());
    const error = await failureOf(importFrom({ [BO3.path]: html(page) }, BO3.path));
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('only part of the veto');
  });

  it('answers 502 for a page that is not a match page', async () => {
    const error = await failureOf(
      importFrom({ [BO5.path]: html('<html><body><h1>News</h1></body></html>') }, BO5.path),
    );
    expect(error.code).toBe('upstream_error');
    expect(error.status).toBe(502);
    expect(error.message).toContain('no teams box');
  });

  it('answers 502 when a veto line names a team that is not in the match', async () => {
    const page = edited(BO5.file, ($) =>
      $('div.veto-box').eq(1).find('div.padding > div').first().text('1. G2 removed Train'),
    );
    const error = await failureOf(importFrom({ [BO5.path]: html(page) }, BO5.path));
    expect(error.code).toBe('upstream_error');
    expect(error.message).toContain('"1. G2 removed Train" names neither Vitality nor FaZe');
  });

  it('answers 502 when the format is one the service does not import', async () => {
    const page = edited(BO1.file, ($) =>
      $('div.veto-box').eq(0).find('div.padding').text('Best of 2 (Online)'),
    );
    const error = await failureOf(importFrom({ [BO1.path]: html(page) }, BO1.path));
    expect(error.code).toBe('upstream_error');
    expect(error.message).toContain('best of 2');
  });

  it("answers 502 when the page's veto breaks the rules (a bo3 page carrying the bo5 veto)", async () => {
    const page = edited(BO5.file, ($) => $('div.veto-box').eq(0).find('div.padding').text('Best of 3 (LAN)'));
    const error = await failureOf(importFrom({ [BO5.path]: html(page) }, BO5.path));
    expect(error.code).toBe('upstream_error');
    expect(error.message).toMatch(
      /^the source's veto does not follow the rules: steps\[4\]: .* must be ban, got pick/,
    );
  });
});
