import type { PartContext } from '../lib/config.ts';
import { HttpClient } from '../lib/http-client.ts';
import { startServerProcess } from '../lib/server-process.ts';
import { ms, sleep, summarizeNs } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';
import { WsCrowd } from '../lib/ws-crowd.ts';
import { WsProbe } from '../lib/ws-probe.ts';

const PART = 'Command → event';
const TARGET_P99_MS: Record<number, number> = { 1: 2, 1000: 25 };

export interface EventLatencyOutcome {
  rows: Row[];
  lost: number;
}

/**
 * HTTP POST toggle_scoreboard from this process, one at a time, with a pause between commands;
 * the time runs from just before the request is written until the probe (a WebSocket client in
 * this process, connected after all the others, so the last the server sends to) has parsed the
 * event of the revision the command made. The other clients live in child processes and check
 * that every revision reached them.
 */
export async function eventLatency(context: PartContext): Promise<EventLatencyOutcome> {
  const hud = await startServerProcess({
    runtime: context.runtime,
    kind: 'hud',
    nodeOptions: context.nodeOptions('event-latency'),
  });
  const http = new HttpClient(hud.port);
  const rows: Row[] = [];
  let lostTotal = 0;
  try {
    for (const { clients, commands, pauseMs, processes } of context.config.latency) {
      const crowd = clients > 1 ? await WsCrowd.connect(hud.wsUrl, clients - 1, processes) : null;
      const probe = await WsProbe.connect(hud.wsUrl);
      const warmup = Math.min(100, Math.ceil(commands / 10));
      const eventNs: bigint[] = [];
      const answerNs: bigint[] = [];
      let final = probe.revision;
      const started = Date.now();
      let cpuBefore = 0;
      for (let i = 0; i < warmup + commands; i++) {
        if (i === warmup) cpuBefore = hud.cpuMs();
        const sent = process.hrtime.bigint();
        const answer = await http.action('toggle_scoreboard');
        const answered = process.hrtime.bigint();
        final = answer.state.revision as number;
        const arrived = await probe.arrival(final, 10_000);
        if (i >= warmup) {
          eventNs.push(arrived - sent);
          answerNs.push(answered - sent);
        }
        await sleep(pauseMs);
      }
      const seconds = (Date.now() - started) / 1000;
      const cpuPerCommand = (hud.cpuMs() - cpuBefore) / commands;
      const delivery = crowd ? await crowd.delivery(final, 30_000) : null;
      const lost = probe.check.missingUpTo(final) + (delivery?.lost ?? 0);
      const outOfOrder = probe.check.outOfOrder + (delivery?.outOfOrder ?? 0);
      lostTotal += lost + outOfOrder;
      await crowd?.close();
      probe.close();

      const event = summarizeNs(eventNs);
      const answer = summarizeNs(answerNs);
      const target = TARGET_P99_MS[clients];
      const label = `${clients.toLocaleString('en-US')} client${clients > 1 ? 's' : ''}`;
      context.log(
        `  ${label}: event p50 ${ms(event.p50)} p99 ${ms(event.p99)} max ${ms(event.max)}; HTTP answer p50 ${ms(answer.p50)} p99 ${ms(answer.p99)}; server CPU ${ms(cpuPerCommand)}/command; ${commands} commands in ${seconds.toFixed(1)} s; lost ${lost}, out of order ${outOfOrder}${delivery ? `, dropped clients ${delivery.closedEarly}` : ''}`,
      );
      rows.push({
        part: PART,
        figure: `${label}, ${commands.toLocaleString('en-US')} commands (pause ${pauseMs} ms)`,
        value: `p50 ${ms(event.p50)}, p99 ${ms(event.p99)} (HTTP answer p99 ${ms(answer.p99)}); server CPU ${ms(cpuPerCommand)}/command`,
        ...(target !== undefined ? { target: `p99 <= ${target} ms`, met: event.p99 <= target } : {}),
      });
      rows.push({
        part: PART,
        figure: `${label}: events lost / out of order`,
        value: `${lost} / ${outOfOrder} (of ${(commands + warmup).toLocaleString('en-US')} revisions x ${clients.toLocaleString('en-US')})`,
        target: '0',
        met: lost === 0 && outOfOrder === 0,
      });
    }
    return { rows, lost: lostTotal };
  } finally {
    http.close();
    await hud.stop();
  }
}
