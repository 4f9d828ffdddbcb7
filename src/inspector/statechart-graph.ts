/**
 * The statechart of a machine as plain data, read from `machine.root`: the one walk behind both the
 * Mermaid diagrams in visualizations/ (scripts/statechart-mermaid.ts) and the live Machines view
 * (src/inspector/chart-layout.ts). Whatever a machine declares, both draw the same states and arrows.
 *
 * It walks `machine.root` itself because `toDirectedGraph` from `xstate/graph` leaves out `always`
 * transitions. What becomes an arrow, and what a line listed inside a state, is described in
 * docs/visualizations.md.
 */
import {
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  and,
  not,
  or,
  stateIn,
} from 'xstate';

export type ChartStateType = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';

export interface ChartState {
  /** The state's path below the machine joined with `.` (`session.active`); the machine itself is `''`. */
  path: string;
  /** The config key; the machine's id for the machine itself. */
  key: string;
  /** What the box is titled: the key, the machine id, or `H` / `H*` for a history state. */
  label: string;
  type: ChartStateType;
  description: string | null;
  /** `invokes obsSocket`, `invokes panel as panel.stats`. */
  invokes: string[];
  /** A compound state's initial children (paths). */
  initial: string[];
  children: ChartState[];
  /** In the config's order: each `on` event's, then `always`, then a history state's default. */
  transitions: ChartTransition[];
}

export interface ChartTarget {
  path: string;
  /**
   * Set when the transition cannot be an arrow because it goes from a state into its own children
   * (`on: { reset: '.idle' }`): the target's path relative to the source, listed inside the source.
   */
  within: string | null;
}

export interface ChartTransition {
  /** Stable within a machine: the source's path, the event type and its index there (`transitionIdOf`). */
  id: string;
  /** The event type as the machine receives it (`xstate.after.500.x` …); `''` for `always` and history. */
  event: string;
  /** The arrow's label: the event as the config names it (`after 500ms`, `done: obsSocket`), then `[guard]`. */
  label: string;
  /** How the state lists it when it is not an arrow (targetless, or into its own children). */
  line: string;
  guard: string | null;
  actions: string[];
  targets: ChartTarget[];
  kind: 'event' | 'always' | 'history';
}

export interface Statechart {
  machineId: string;
  root: ChartState;
}

/** The machine's states and transitions, in the order of its config. Same machine, same data. */
export function statechartOf(machine: AnyStateMachine): Statechart {
  const eventNames = generatedEventNames(machine.root);
  return { machineId: machine.id, root: stateOf(machine.root, eventNames) };
}

/** Every state of the chart, parents before children, in the config's order. */
export function* chartStates(state: ChartState): Generator<ChartState> {
  yield state;
  for (const child of state.children) yield* chartStates(child);
}

export const pathOf = (node: AnyStateNode): string => node.path.join('.');

/**
 * The id `statechartOf` gives a transition, for one the running actor took (an inspection event's
 * microstep): the same machine provided with other actors has other objects but the same config.
 */
export function transitionIdOf(transition: AnyTransitionDefinition): string {
  const source = transition.source;
  const always = source.always?.indexOf(transition) ?? -1;
  if (always >= 0) return `${pathOf(source)}|always|${always}`;
  const index = source.transitions.get(transition.eventType)?.indexOf(transition) ?? 0;
  return `${pathOf(source)}|${transition.eventType}|${index}`;
}

function stateOf(node: AnyStateNode, eventNames: Map<string, string>): ChartState {
  const type: ChartStateType = node.type;
  return {
    path: pathOf(node),
    key: node.parent === undefined ? node.id : node.key,
    label:
      node.type === 'history'
        ? node.history === 'deep'
          ? 'H*'
          : 'H'
        : node.parent === undefined
          ? node.id
          : node.key,
    type,
    description: node.description ?? null,
    invokes: node.invoke.map((invocation, index) => invokeLine(node, invocation, index)),
    initial: node.type === 'compound' ? node.initial.target.map(pathOf) : [],
    children: Object.values(node.states).map((child) => stateOf(child, eventNames)),
    transitions: transitionsOf(node, eventNames),
  };
}

function isComposite(node: AnyStateNode): boolean {
  return node.type === 'compound' || node.type === 'parallel';
}

function isInside(node: AnyStateNode, ancestor: AnyStateNode): boolean {
  for (let current: AnyStateNode | undefined = node; current; current = current.parent) {
    if (current === ancestor) return true;
  }
  return false;
}

function relativePath(from: AnyStateNode, to: AnyStateNode): string {
  return to === from ? from.key : to.path.slice(from.path.length).join('.');
}

function targetsOf(node: AnyStateNode, targets: readonly AnyStateNode[]): ChartTarget[] {
  return targets.map((target) => ({
    path: pathOf(target),
    within: isComposite(node) && isInside(target, node) ? relativePath(node, target) : null,
  }));
}

function transitionsOf(node: AnyStateNode, eventNames: Map<string, string>): ChartTransition[] {
  const out: ChartTransition[] = [];
  const path = pathOf(node);
  for (const [eventType, transitions] of node.transitions) {
    // A state's own onDone is plain `done`; `done: <key>` is for one heard from elsewhere.
    const name =
      eventType === `xstate.done.state.${node.id}` ? 'done' : (eventNames.get(eventType) ?? eventType);
    transitions.forEach((transition, index) => {
      const label = withGuard(name, transition.guard);
      out.push({
        id: `${path}|${eventType}|${index}`,
        event: eventType,
        label,
        line: `on ${label}`,
        guard: guardOrNull(transition.guard),
        actions: actionsOf(transition),
        targets: targetsOf(node, transition.target ?? []),
        kind: 'event',
      });
    });
  }
  (node.always ?? []).forEach((transition, index) => {
    // An eventless transition is labelled by its guard alone, as in UML; unguarded, by `always`.
    out.push({
      id: `${path}|always|${index}`,
      event: '',
      label: transition.guard === undefined ? 'always' : `[${guardLabel(transition.guard)}]`,
      line: withGuard('always', transition.guard),
      guard: guardOrNull(transition.guard),
      actions: actionsOf(transition),
      targets: targetsOf(node, transition.target ?? []),
      kind: 'always',
    });
  });
  if (node.type === 'history') {
    out.push({
      id: `${path}|history|0`,
      event: '',
      label: '',
      line: '',
      guard: null,
      actions: [],
      // Never "within": a history state has no children.
      targets: historyTargets(node).map((target) => ({ path: pathOf(target), within: null })),
      kind: 'history',
    });
  }
  return out;
}

/**
 * Delayed, done and error events reach a state under generated event types; name them the way the
 * config does. Machine-wide, because a state in one parallel region may listen for the done event
 * of an actor invoked in another.
 */
function generatedEventNames(root: AnyStateNode): Map<string, string> {
  const names = new Map<string, string>();
  for (const node of preOrder(root)) {
    for (const invocation of node.invoke) {
      const actor = actorName(invocation);
      names.set(`xstate.done.actor.${invocation.id}`, `done: ${actor}`);
      names.set(`xstate.error.actor.${invocation.id}`, `error: ${actor}`);
      names.set(`xstate.snapshot.${invocation.id}`, `snapshot: ${actor}`);
    }
    for (const delayed of node.after) names.set(delayed.eventType, `after ${delayLabel(delayed.delay)}`);
    if (node.parent) names.set(`xstate.done.state.${node.id}`, `done: ${node.key}`);
  }
  return names;
}

/** Document order: the order of the `states` config, parents before children. */
function* preOrder(node: AnyStateNode): Generator<AnyStateNode> {
  yield node;
  for (const child of Object.values(node.states)) yield* preOrder(child);
}

function withGuard(label: string, guard: unknown): string {
  return guard === undefined ? label : `${label} [${guardLabel(guard)}]`;
}

function guardOrNull(guard: unknown): string | null {
  return guard === undefined ? null : guardLabel(guard);
}

// Higher-order guards are functions carrying a shared `check`; compare by identity, not by name,
// which a minifier may change.
type GuardObject = { check?: unknown; guards?: unknown[]; stateValue?: unknown; type?: unknown };
const checkOf = (guard: unknown): unknown => (guard as GuardObject).check;
const checkAnd = checkOf(and([]));
const checkOr = checkOf(or([]));
const checkNot = checkOf(not('x'));
const checkStateIn = checkOf(stateIn('#x'));

function guardLabel(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && guard !== null && typeof (guard as GuardObject).type === 'string') {
    return (guard as { type: string }).type;
  }
  if (typeof guard === 'function') {
    const composite = guard as GuardObject;
    const parts = (composite.guards ?? []).map((inner) => {
      const text = guardLabel(inner);
      const check = checkOf(inner);
      return check === checkAnd || check === checkOr ? `(${text})` : text;
    });
    if (composite.check === checkAnd) return parts.join(' and ');
    if (composite.check === checkOr) return parts.join(' or ');
    if (composite.check === checkNot) return `not ${parts[0] ?? ''}`;
    if (composite.check === checkStateIn) {
      const value = composite.stateValue;
      return `in ${typeof value === 'string' ? value : JSON.stringify(value)}`;
    }
    // An inline arrow gets the name of its property, `guard`, which says nothing.
    return guard.name !== '' && guard.name !== 'guard' ? guard.name : 'inline guard';
  }
  return 'guard';
}

/** Named actions by name; XState's own (`assign`, `sendTo`, `raise` …) by theirs; inline ones say so. */
function actionsOf(transition: AnyTransitionDefinition): string[] {
  return (transition.actions ?? []).map((action: unknown) => {
    if (typeof action === 'string') return action;
    const type = (action as { type?: unknown } | null)?.type;
    if (typeof type === 'string') return type.replace(/^xstate\./, '');
    if (typeof action === 'function' && action.name !== '' && action.name !== 'actions') return action.name;
    return 'inline action';
  });
}

function delayLabel(delay: unknown): string {
  if (typeof delay === 'number') return `${delay}ms`;
  if (typeof delay === 'string') return delay;
  if (typeof delay === 'function' && delay.name !== '' && delay.name !== 'delay') return delay.name;
  return 'computed delay';
}

function actorName(invocation: { id: string; src: unknown }): string {
  if (typeof invocation.src === 'string' && !invocation.src.startsWith('xstate.invoke.')) {
    return invocation.src;
  }
  // Inline logic gets the generated src `xstate.invoke.<id>`; an explicit id is the better name.
  const generated = typeof invocation.src === 'string' && invocation.src === `xstate.invoke.${invocation.id}`;
  return generated ? 'inline actor' : invocation.id;
}

/**
 * `invokes panel as scoreboard` when one actor logic runs several times under different names:
 * the name is the systemId the rest of the service reaches it by, or else an explicit id.
 */
function invokeLine(
  node: AnyStateNode,
  invocation: { id: string; src: unknown; systemId: string | undefined },
  index: number,
): string {
  const actor = actorName(invocation);
  // XState names an invocation without an id `<index>.<state id>`.
  const explicitId = invocation.id === `${index}.${node.id}` ? undefined : invocation.id;
  const as = invocation.systemId ?? explicitId;
  return as === undefined || as === actor ? `invokes ${actor}` : `invokes ${actor} as ${as}`;
}

function historyTargets(node: AnyStateNode): AnyStateNode[] {
  const config = node.config as { target?: string | readonly string[] };
  const targets = config.target === undefined ? [] : ([] as string[]).concat(config.target);
  const found: AnyStateNode[] = [];
  for (const target of targets) {
    let resolved: AnyStateNode | undefined;
    if (target.startsWith('#')) {
      try {
        resolved = node.machine.getStateNodeById(target.slice(1));
      } catch {
        resolved = undefined;
      }
    } else {
      // A history default target is relative to the history node's parent.
      resolved = node.parent;
      for (const key of target.replace(/^\./, '').split('.')) resolved = resolved?.states[key];
    }
    if (resolved) found.push(resolved);
  }
  return found;
}
