/**
 * The second walk: the observer machine's modes (the `observer` region and its subscription gate)
 * walked as a model, each path driven through the real server (set_smart_observer over HTTP, the
 * subscription switch of the panel API) and each state checked against GET /api/observer, as the
 * machine's own walk (test/machines/observer.test.ts) checks it against the actor.
 */
import { describe, expect, it } from 'vitest';
import { TestModel } from 'xstate/graph';
import type { ObserverEvent, ObserverInput, ObserverSnapshot } from '../../machines/observer.machine.ts';
import { configureRefusal, OBSERVER_DEFAULTS, observerMachine } from '../../machines/observer.machine.ts';
import type { RunningServer } from '../../src/server.ts';
import { build, command, get } from '../helpers/build.ts';

type ModeEvent = Extract<ObserverEvent, { type: 'observer.configure' | 'observer.subscription' }>;

const EVENTS: ModeEvent[] = [
  { type: 'observer.configure', changes: { enabled: true, mode: 'auto' } },
  { type: 'observer.configure', changes: { enabled: true, mode: 'suggest' } },
  { type: 'observer.configure', changes: { enabled: false } },
  { type: 'observer.subscription', active: true },
  { type: 'observer.subscription', active: false },
];

const describeEvent = (event: ModeEvent) =>
  event.type === 'observer.configure'
    ? event.changes.enabled === false
      ? 'set_smart_observer off'
      : `set_smart_observer on ${event.changes.mode}`
    : `subscription ${event.active ? 'on' : 'off'}`;

/** What a client can tell apart: the mode, the settings, the subscription (the link is the machine walk's). */
const keyOf = (snapshot: ObserverSnapshot) =>
  JSON.stringify({
    observer: (snapshot.value as { observer: string }).observer,
    settings: snapshot.context.settings,
    subscription: snapshot.context.subscriptionActive,
  });

const model = new TestModel<ObserverSnapshot, ModeEvent, ObserverInput>(observerMachine as never, {
  input: OBSERVER_DEFAULTS,
  events: EVENTS,
  filterEvents: (snapshot, event) =>
    // set_smart_observer { enabled: true } without a subscription is a 503 the walk takes too.
    snapshot.can(event as ObserverEvent) ||
    (event.type === 'observer.configure' && configureRefusal(snapshot.context, event.changes) !== null),
  serializeState: (snapshot) => keyOf(snapshot),
});

async function send(server: RunningServer, event: ModeEvent, before: ObserverSnapshot) {
  if (event.type === 'observer.subscription') {
    const answer = await fetch(`${server.httpUrl}/internal/subscription`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ active: event.active }),
    });
    expect(await answer.json()).toEqual({ ok: true, subscriptionActive: event.active });
    return;
  }
  const answer = await command(server, 'set_smart_observer', event.changes);
  if (configureRefusal(before.context, event.changes)) {
    expect(answer.status).toBe(503);
    expect(answer.body.message).toContain('Integrations > Observer');
  } else {
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatchObject(event.changes);
  }
}

async function check(server: RunningServer, expected: ObserverSnapshot) {
  const { observer } = (await get(server, '/api/observer')).body;
  const { settings, subscriptionActive } = expected.context;
  const state = (expected.value as { observer: string }).observer;
  expect(observer).toMatchObject({
    ...settings,
    subscriptionActive,
    state,
    blockedBy: settings.enabled && !subscriptionActive ? 'no_subscription' : null,
  });
  // The link is tried whenever the observer runs, suggest or auto, so "connected" shows before going
  // live (nothing listens on 2121 here: it tries, never blocks); never while it is off.
  if (state === 'disabled') expect(observer.link).toMatchObject({ connection: 'off', reason: 'not_auto' });
  else expect(observer.link.connection).not.toBe('off');
  // One owner: the production event's smartObserver is the observer's settings.
  expect(server.service.hub.snapshots().observer.context.settings).toEqual(settings);
}

describe('observer modes over HTTP, model-based', () => {
  const paths = model.getShortestPaths();

  it('reaches every mode with and without a subscription', () => {
    const reached = new Set(
      paths.flatMap((path) => path.steps.map((step) => keyOf(step.state as ObserverSnapshot))),
    );
    const modes = new Set([...reached].map((key) => JSON.parse(key).observer));
    expect([...modes].sort()).toEqual(['auto', 'disabled', 'suggest']);
    // (on auto, on suggest, off keeping auto, off keeping suggest) x (subscription or not).
    expect(reached.size).toBe(8);
  });

  for (const [index, path] of paths.entries()) {
    const name = path.steps
      .slice(1)
      .map(({ event }) => describeEvent(event as ModeEvent))
      .join(' → ');
    it(`path ${index}: ${name || 'initial state'}`, async () => {
      const server = await build();
      let before = path.steps[0]?.state as ObserverSnapshot;
      await check(server, before);
      for (const step of path.steps.slice(1)) {
        await send(server, step.event as ModeEvent, before);
        await check(server, step.state as ObserverSnapshot);
        before = step.state as ObserverSnapshot;
      }
    });
  }
});
