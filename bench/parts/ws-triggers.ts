import type { PartContext } from '../lib/config.ts';
import { startServerProcess } from '../lib/server-process.ts';
import { ms, perSecond, summarizeNs } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';
import { WsProbe } from '../lib/ws-probe.ts';

const PART = 'WS triggers';

/**
 * One client sends toggle_scoreboard triggers for a fixed time, keeping `window` of them in flight
 * (1: closed loop). Latency runs from the send until its result (matched by id) is parsed. The
 * client is also subscribed, so it checks that each trigger's revision arrived as an event.
 */
export async function wsTriggers(context: PartContext): Promise<{ rows: Row[]; lost: number }> {
  const { windows, warmupSeconds, seconds } = context.config.wsTriggers;
  const hud = await startServerProcess({
    runtime: context.runtime,
    kind: 'hud',
    nodeOptions: context.nodeOptions('ws-triggers'),
  });
  const probe = await WsProbe.connect(hud.wsUrl);
  let id = 0;
  let final = probe.revision;

  const run = async (window: number, forSeconds: number) => {
    const latencies: bigint[] = [];
    const deadline = Date.now() + forSeconds * 1000;
    const lane = async () => {
      while (Date.now() < deadline) {
        const sent = process.hrtime.bigint();
        const { at, message } = await probe.trigger(++id, 'toggle_scoreboard');
        if (!message.ok) throw new Error(`trigger failed: ${JSON.stringify(message)}`);
        final = Math.max(final, message.state.revision as number);
        latencies.push(at - sent);
      }
    };
    const started = process.hrtime.bigint();
    const cpuBefore = hud.cpuMs();
    await Promise.all(Array.from({ length: window }, lane));
    const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
    const cpuUs = ((hud.cpuMs() - cpuBefore) * 1000) / latencies.length;
    return { rate: latencies.length / elapsed, latency: summarizeNs(latencies), cpuUs };
  };

  const rows: Row[] = [];
  try {
    for (const window of windows) {
      await run(window, warmupSeconds);
      const { rate, latency, cpuUs } = await run(window, seconds);
      context.log(
        `  window ${window}: ${perSecond(rate)}, p50 ${ms(latency.p50)}, p99 ${ms(latency.p99)}, max ${ms(latency.max)}, server CPU ${cpuUs.toFixed(0)} µs/trigger`,
      );
      rows.push({
        part: PART,
        figure:
          window === 1
            ? 'one client, closed loop (1 in flight)'
            : `one client, window of ${window} in flight`,
        value: `${perSecond(rate)}, p50 ${ms(latency.p50)}, p99 ${ms(latency.p99)}, max ${ms(latency.max)}; CPU ${cpuUs.toFixed(0)} µs/trigger`,
      });
    }
    // Give the last events a moment: they are sent before each result, so they are normally here already.
    await probe.arrival(final, 5_000);
    const lost = probe.check.missingUpTo(final) + probe.check.outOfOrder;
    rows.push({
      part: PART,
      figure: 'events lost / out of order (the triggering client)',
      value: `${probe.check.missingUpTo(final)} / ${probe.check.outOfOrder}`,
      target: '0',
      met: lost === 0,
    });
    return { rows, lost };
  } finally {
    probe.close();
    await hud.stop();
  }
}
