import type { PartContext } from '../lib/config.ts';
import { BO3_VETO, HttpClient } from '../lib/http-client.ts';
import { load, setMapResult, TOGGLE_SCOREBOARD } from '../lib/http-load.ts';
import { startServerProcess } from '../lib/server-process.ts';
import { median, mib, ms, perSecond, sleep } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';
import { WsCrowd } from '../lib/ws-crowd.ts';

const PART = 'Memory (RSS)';
const percent = (share: number) => `${share >= 0 ? '+' : ''}${(share * 100).toFixed(1)}%`;

/**
 * VmRSS of the server process (/proc/<pid>/status): idle, with the clients connected, then after
 * a warm-up of commands (the baseline: code compiled, heap grown to its working size) and after
 * the long run (the median of five readings), with the trend inside the run beside it. Commands
 * alternate toggle_scoreboard and set_map_result over HTTP.
 */
export async function memory(context: PartContext): Promise<Row[]> {
  const { clients, warmupCommands, commands, connections, maxSeconds } = context.config.memory;
  const hud = await startServerProcess({
    runtime: context.runtime,
    kind: 'hud',
    nodeOptions: context.nodeOptions('memory'),
  });
  try {
    await sleep(1_000);
    const idle = hud.rssKb();
    const crowd = await WsCrowd.connect(hud.wsUrl, clients, 2);
    await sleep(1_000);
    const withClients = hud.rssKb();
    await crowd.close();
    context.log(`  idle ${mib(idle)}, with ${clients} clients ${mib(withClients)}`);

    const client = new HttpClient(hud.port);
    await client.action('veto_set', BO3_VETO);
    client.close();
    const requests = [TOGGLE_SCOREBOARD, setMapResult()];
    const warm = await load({ url: hud.httpUrl, connections, requests, amount: warmupCommands });
    await sleep(1_000);
    const baseline = hud.rssKb();

    // Sampled every 250 ms, so that the trend inside the run shows apart from where one GC happened to be.
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(hud.rssKb()), 250);
    const long = await load({
      url: hud.httpUrl,
      connections,
      requests,
      amount: commands,
      maxSeconds,
    }).finally(() => clearInterval(sampler));
    // A single reading lands anywhere in the GC cycle: take the median of five, one second apart.
    const readings: number[] = [];
    for (let i = 0; i < 5; i++) {
      await sleep(1_000);
      readings.push(hud.rssKb());
    }
    const after = median(readings);
    const peak = Math.max(baseline, after, ...samples);
    const growth = (after - baseline) / baseline;
    // Second quarter against last quarter of the run: a leak grows with the count, a heap that settles does not.
    const quarter = Math.floor(samples.length / 4);
    const early = median(samples.slice(quarter, 2 * quarter));
    const late = median(samples.slice(3 * quarter));
    const trend = (late - early) / early;
    const failures = warm.failures + long.failures;
    context.log(
      `  baseline ${mib(baseline)}, after ${long.total} commands (${perSecond(long.requestsPerSecond)}) ${mib(after)}, peak ${mib(peak)}, growth ${percent(growth)}; in the run: 2nd quarter ${mib(early)}, last quarter ${mib(late)} (${percent(trend)})`,
    );
    const done = long.total;
    // Sent, answered or not: a command that timed out still ran through the server.
    const sent = done + long.failures;
    const count = sent === 1e6 ? '10^6' : sent.toLocaleString('en-US');
    const note = long.capped
      ? ` (stopped at the ${maxSeconds} s cap)`
      : context.config.quick
        ? ' (--quick: not 10^6)'
        : '';
    return [
      { part: PART, figure: 'server idle (1 s after start)', value: mib(idle) },
      {
        part: PART,
        figure: `${clients.toLocaleString('en-US')} WebSocket clients connected`,
        value: `${mib(withClients)} (+${mib(withClients - idle)})`,
      },
      {
        part: PART,
        figure: `growth over ${count} commands${note}`,
        value: `${percent(growth)} (${mib(baseline)} after ${warmupCommands.toLocaleString('en-US')} warm-up commands -> ${mib(after)}, peak ${mib(peak)}; median RSS 2nd -> last quarter of the run ${percent(trend)})`,
        target: '<= 10%',
        met: growth <= 0.1,
      },
      {
        part: PART,
        figure: `commands of that run failed or unanswered within 10 s`,
        value: `${failures} (${long.failureText}; ${perSecond(long.requestsPerSecond)}, p99 ${ms(long.p99Ms)}, max ${ms(long.maxMs)})`,
        target: '0',
        met: failures === 0,
      },
    ];
  } finally {
    await hud.stop();
  }
}
