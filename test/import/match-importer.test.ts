import { describe, expect, it } from 'vitest';
import { currentSourceServer, failureOf, fixtureJson, html, importerFor, json } from './source-server.ts';

const SCHEDULED = fixtureJson<{ match_id: string }>(
  'faceit_data-v4-match_SCHEDULED_no-voting__eggosystem__validMatchDetailsMatchCreated.json',
);
const FACEIT_ID = SCHEDULED.match_id;
const HLTV_PATH = '/matches/2388130/vitality-vs-faze-starladder-budapest-major-2025';
const HLTV_URL = `https://www.hltv.org${HLTV_PATH}`;

describe('the 409 memo', () => {
  it('answers a repeated question within the window from memory, then loads the room again', async () => {
    let clock = 1_000_000;
    const { importMatch } = await importerFor(
      { [`/data/v4/matches/${FACEIT_ID}`]: json(SCHEDULED) },
      { conflictMemoMs: 5_000, now: () => clock },
    );
    const first = await failureOf(importMatch({ platformMatchId: FACEIT_ID }));
    expect(first.code).toBe('conflict');
    expect(currentSourceServer()?.requests).toHaveLength(1);

    clock += 4_999;
    // The room URL names the same match as the bare id, so it shares the memo.
    const second = await failureOf(importMatch({ url: `https://www.faceit.com/en/cs2/room/${FACEIT_ID}` }));
    expect(second).toMatchObject({ code: 'conflict', message: first.message });
    expect(currentSourceServer()?.requests).toHaveLength(1);

    clock += 1;
    await failureOf(importMatch({ platformMatchId: FACEIT_ID }));
    expect(currentSourceServer()?.requests).toHaveLength(2);
  });

  it('remembers only conflicts: a 502 is asked again at once', async () => {
    const { importMatch } = await importerFor(
      { [HLTV_PATH]: html('<html><body>maintenance</body></html>', 500) },
      { now: () => 0 },
    );
    await failureOf(importMatch({ url: HLTV_URL }));
    await failureOf(importMatch({ url: HLTV_URL }));
    expect(currentSourceServer()?.requests).toHaveLength(2);
  });

  it('validates the payload before the memo and the network', async () => {
    const { importMatch } = await importerFor({});
    const error = await failureOf(importMatch({ url: HLTV_URL, platformMatchId: FACEIT_ID }));
    expect(error).toMatchObject({ code: 'invalid_payload', status: 400 });
    expect(currentSourceServer()?.requests).toHaveLength(0);
  });
});
