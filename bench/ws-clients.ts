/**
 * A crowd of WebSocket clients in their own process, so that parsing their messages does not
 * slow down the process that measures. Driven by its parent over IPC (see lib/ws-crowd.ts).
 * Each client only parses and checks revisions: the cheapest subscriber the protocol allows.
 */
import { WebSocket } from 'ws';
import { RevisionCheck } from './lib/revision-check.ts';
import type { CrowdReport, CrowdRequest } from './lib/ws-crowd.ts';

interface Member {
  socket: WebSocket;
  check: RevisionCheck;
  closedEarly: boolean;
}

const members: Member[] = [];
let waiter: (() => void) | null = null;
let target = Number.POSITIVE_INFINITY;
let behind = 0;
/** Set once the parent asks to close: a close before that is the server dropping a client. */
let closing = false;

function reply(message: CrowdReport): void {
  process.send?.(message);
}

function join(url: string): Promise<Member> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    const member: Member = { socket, check: new RevisionCheck(), closedEarly: false };
    let welcomed = false;
    socket.on('message', (data) => {
      const before = member.check.last;
      member.check.see(JSON.parse(data.toString()));
      if (!welcomed && member.check.last >= 0) {
        welcomed = true;
        resolve(member);
        return;
      }
      if (before < target && member.check.last >= target && --behind === 0) waiter?.();
    });
    socket.once('close', () => {
      if (!welcomed) reject(new Error('closed before hello'));
      else member.closedEarly = !closing;
    });
    socket.once('error', reject);
  });
}

async function connect(url: string, count: number, concurrency: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      members.push(await join(url));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

async function expect(revision: number, timeoutMs: number): Promise<void> {
  target = revision;
  behind = members.filter((member) => member.check.last < revision).length;
  if (behind > 0) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      waiter = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
  waiter = null;
  target = Number.POSITIVE_INFINITY;
  reply({
    type: 'report',
    clients: members.length,
    events: members.reduce((sum, member) => sum + member.check.events, 0),
    lost: members.reduce((sum, member) => sum + member.check.missingUpTo(revision), 0),
    outOfOrder: members.reduce((sum, member) => sum + member.check.outOfOrder, 0),
    closedEarly: members.filter((member) => member.closedEarly).length,
  });
}

process.on('message', (request: CrowdRequest) => {
  const run = async () => {
    switch (request.type) {
      case 'connect':
        await connect(request.url, request.count, request.concurrency);
        return reply({ type: 'connected', clients: members.length });
      case 'expect':
        return expect(request.revision, request.timeoutMs);
      case 'close':
        closing = true;
        for (const member of members) member.socket.terminate();
        process.exit(0);
    }
  };
  run().catch((error: unknown) => {
    reply({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  });
});
