/**
 * The Machines view's routes on the application server (docs/machines-view.md): every actor's
 * statechart laid out here, the live timeline as a stream of server-sent events, the context on
 * demand, and the second-screen page. Under /api/panel/, so the page-access hook lets only a
 * signed-in browser in (401 otherwise), as for the rest of the panel API.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { AnyStateMachine } from 'xstate';
import { SYSTEM_ID } from '../../../machines/system-ids.ts';
import { ACTOR_KEYS, type ActorKey } from '../../core/hud-system.ts';
import { sendError } from '../../http/error-envelope.ts';
import { safePreview } from '../../inspector/redaction.ts';
import { statechartOf } from '../../inspector/statechart-graph.ts';
import { ServiceError } from '../../protocol/errors.ts';
import { answers, okAnswer } from '../../protocol/http-answers.ts';
import {
  type ChartLayout,
  ChartLayoutSchema,
  MACHINES_API,
  MACHINES_PAGE,
  type MachinesStreamMessage,
} from '../../protocol/machines-view.ts';
import {
  type StreamedEntry,
  StreamQuerySchema,
  THINNED_PER_SECOND,
} from '../../protocol/machines-view-stream.ts';
import { layoutStatechart, type StatechartLayout } from './chart-layout.ts';
import { MachineWatch, type Recorded, type WatchedSystem } from './machine-watch.ts';
import { StreamThinner } from './thinning.ts';

export interface MachinesViewOptions {
  hud: WatchedSystem;
}

/**
 * The veto session first (what crews watch most), then the observer, the game (when the roster has
 * it: the actor game frames reach) and the match (sides and results), then the rest in roster order.
 */
const FIRST = ['vetoSession', 'observer', 'game', 'match'];
export const VIEW_ORDER: readonly ActorKey[] = [
  ...FIRST.flatMap((key) => ACTOR_KEYS.filter((actor) => actor === key)),
  ...ACTOR_KEYS.filter((key) => !FIRST.includes(key)),
];

/** A page that reads slower than the events come gets its stream closed; its EventSource reconnects. */
const STREAM_BACKLOG_BYTES = 1 << 20;

/** A context asked for is read whole, within reason (an observer's memory of every player). */
const CONTEXT_VALUES = 4000;

const ActorParams = Type.Object({ actor: Type.String({ maxLength: 64 }) });

const machinesView: FastifyPluginAsyncTypebox<MachinesViewOptions> = async (app, { hud }) => {
  const watch = new MachineWatch(hud);
  // Laid out on first request, once per machine (the four panels share one): ELK takes 0.1-0.3 s each.
  const layouts = new WeakMap<AnyStateMachine, Promise<StatechartLayout>>();

  const machineOf = (actor: ActorKey): AnyStateMachine => {
    const logic = (hud.actor(actor) as unknown as { logic: AnyStateMachine }).logic;
    return logic;
  };
  const actorOf = (name: string): ActorKey => {
    if ((ACTOR_KEYS as readonly string[]).includes(name)) return name as ActorKey;
    throw new ServiceError('not_found', `no actor "${name}": the actors are ${VIEW_ORDER.join(', ')}`);
  };
  /** Each open page: its socket, what it is sent of the timeline, and what waits for the next write. */
  interface Stream {
    raw: FastifyReply['raw'];
    thinner: StreamThinner;
    pending: string[];
  }
  const streams = new Set<Stream>();
  let stopWatching: (() => void) | null = null;

  // Entries of one burst (a game frame reaches several actors) go out in one write per page.
  const flush = (stream: Stream) => {
    const text = stream.pending.join('');
    stream.pending = [];
    if (stream.raw.writableLength > STREAM_BACKLOG_BYTES) stream.raw.end();
    else stream.raw.write(text);
  };
  const enqueue = (stream: Stream, record: Recorded, unsent: number) => {
    // The entry's JSON is made once for every page; only the count differs from page to page.
    const message = `data: {"type":"entry","entry":${record.json.slice(0, -1)},"unsent":${unsent}}}\n\n`;
    if (stream.pending.push(message) === 1) setImmediate(() => flush(stream));
  };

  app.get(
    MACHINES_API,
    {
      schema: {
        response: answers(
          okAnswer({
            actors: Type.Array(
              Type.Object({ actor: Type.String(), systemId: Type.String(), machineId: Type.String() }),
            ),
          }),
        ),
      },
    },
    async () => ({
      ok: true as const,
      actors: VIEW_ORDER.map((actor) => ({
        actor,
        systemId: SYSTEM_ID[actor],
        machineId: machineOf(actor).id,
      })),
    }),
  );

  app.get(
    `${MACHINES_API}/chart/:actor`,
    { schema: { params: ActorParams, response: answers(okAnswer({ chart: ChartLayoutSchema })) } },
    async (request) => {
      const actor = actorOf(request.params.actor);
      const machine = machineOf(actor);
      let layout = layouts.get(machine);
      if (!layout) {
        layout = layoutStatechart(statechartOf(machine));
        layouts.set(machine, layout);
      }
      const chart: ChartLayout = { actor, systemId: SYSTEM_ID[actor], ...(await layout) };
      return { ok: true as const, chart };
    },
  );

  app.get(
    `${MACHINES_API}/context/:actor`,
    {
      schema: {
        params: ActorParams,
        response: answers(okAnswer({ actor: Type.String(), context: Type.Unknown() })),
      },
    },
    async (request) => {
      const actor = actorOf(request.params.actor);
      return {
        ok: true as const,
        actor,
        context: safePreview(hud.actor(actor).getSnapshot().context, CONTEXT_VALUES),
      };
    },
  );

  // Server-sent events rather than the page WebSocket: the view's stream exists only while a page
  // has it open, and the hub's revisions and the WebSocket's messages stay as they are.
  app.get(`${MACHINES_API}/stream`, { schema: { querystring: StreamQuerySchema } }, (request, reply) => {
    const focus = request.query.focus === undefined ? null : actorOf(request.query.focus);
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    if (streams.size === 0) {
      stopWatching = watch.watch((record) => {
        for (const stream of streams) stream.thinner.offer(record);
      });
    }
    // The kept timeline goes through the page's thinner too: `hello` carries what it would have been sent.
    const kept: StreamedEntry[] = [];
    const thinner = new StreamThinner(focus, THINNED_PER_SECOND, (record, unsent) =>
      kept.push({ ...record.entry, unsent }),
    );
    const { actors, records } = watch.now();
    for (const record of records) thinner.offer(record);
    thinner.drain();
    kept.sort((a, b) => a.seq - b.seq);
    const stream: Stream = {
      raw,
      thinner: new StreamThinner(focus, THINNED_PER_SECOND, (record, unsent) =>
        enqueue(stream, record, unsent),
      ),
      pending: [],
    };
    stream.thinner.live();
    streams.add(stream);
    raw.write(
      `data: ${JSON.stringify({ type: 'hello', actors, timeline: kept } satisfies MachinesStreamMessage)}\n\n`,
    );
    raw.on('close', () => {
      streams.delete(stream);
      stream.thinner.close();
      if (streams.size === 0) {
        stopWatching?.();
        stopWatching = null;
      }
    });
  });

  // The second screen's page: the same view, alone. The page itself asks for the session.
  app.get(MACHINES_PAGE, (_request, reply) => {
    if (typeof reply.sendFile !== 'function') {
      return sendError(reply, new ServiceError('unavailable', 'the pages are not built: run npm run build'));
    }
    return reply.sendFile('machines.html');
  });

  app.addHook('preClose', async () => {
    for (const stream of streams) stream.raw.end();
  });
};

export default fp(machinesView, { name: 'machines-view', dependencies: ['page-access', 'pages'] });
