/**
 * Renders an XState v5 machine as a Mermaid `stateDiagram-v2`.
 *
 * It walks `machine.root` itself because `toDirectedGraph` from `xstate/graph` leaves out `always`
 * transitions, and no maintained XState-v5-to-Mermaid package exists. The conventions (what becomes
 * an edge, a note or a line inside a state box, and why) are in docs/visualizations.md.
 *
 * Three Mermaid limits shape the output, each found by rendering with Mermaid 11:
 * - A state referenced before it is declared is created at the top level, so every state is
 *   declared inside its parent's block first and every edge comes after all blocks.
 * - An edge from a composite state to one of its own descendants is not drawn (and declaring it
 *   inside that block is a parse error), so such transitions are listed in the composite's note.
 * - A composite state cannot carry description lines, so its description, invoked actors and
 *   transitions that stay inside it go into a note beside it; atomic states get description lines.
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

/** One Mermaid `stateDiagram-v2` for the machine, ending with a newline. Same machine, same text. */
export function machineToMermaid(machine: AnyStateMachine): string {
  const ids = assignIds(machine.root);
  const eventNames = generatedEventNames(machine.root);
  const details = new Map<AnyStateNode, string[]>();
  const edges: string[] = [];
  for (const node of preOrder(machine.root)) {
    const lines: string[] = [];
    if (node.description !== undefined) lines.push(...node.description.split('\n'));
    for (const [index, invocation] of node.invoke.entries()) lines.push(invokeLine(node, invocation, index));
    collectTransitions(node, ids, eventNames, lines, edges);
    if (node.type === 'history') {
      for (const target of historyTargets(node)) edges.push(`${idOf(ids, node)} --> ${idOf(ids, target)}`);
    }
    details.set(node, lines);
  }
  const out = ['stateDiagram-v2', ...renderState(machine.root, ids, details, 1)];
  if (edges.length > 0) out.push('  %% transitions', ...edges.map((edge) => `  ${edge}`));
  return `${out.join('\n')}\n`;
}

// Words the Mermaid state grammar reads as keywords when they stand where an id is expected
// (`state`, `class` and `default` fail to parse; the rest are reserved to be safe).
const reservedIds = new Set([
  'state',
  'class',
  'classdef',
  'default',
  'style',
  'note',
  'end',
  'direction',
  'click',
  'hide',
  'scale',
  'as',
  'fork',
  'join',
  'choice',
  'left',
  'right',
  'of',
  'statediagram',
]);

function safeSegment(text: string): string {
  return text.replace(/[^A-Za-z0-9_]/g, '_');
}

/** Every other id starts with the root's, so only the root's can be empty, numeric or a keyword. */
function safeRootId(text: string): string {
  let id = safeSegment(text);
  if (id === '' || /^[0-9]/.test(id)) id = `s_${id}`;
  return reservedIds.has(id.toLowerCase()) ? `${id}_` : id;
}

/**
 * Ids are the path with the machine id in front, so a diff shows which state changed. Two keys that
 * sanitise alike (`map-pool`, `map_pool`) get a numeric suffix in document order, which keeps the
 * ids stable as long as the config's order is.
 */
function assignIds(root: AnyStateNode): Map<AnyStateNode, string> {
  const ids = new Map<AnyStateNode, string>();
  const taken = new Set<string>();
  for (const node of preOrder(root)) {
    const parentId = node.parent ? ids.get(node.parent) : undefined;
    const base = parentId === undefined ? safeRootId(node.id) : `${parentId}_${safeSegment(node.key)}`;
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
    taken.add(id);
    ids.set(node, id);
  }
  return ids;
}

function idOf(ids: Map<AnyStateNode, string>, node: AnyStateNode): string {
  const id = ids.get(node);
  if (id === undefined) throw new Error(`state ${node.id} is not part of the machine being drawn`);
  return id;
}

/** Document order: the order of the `states` config, parents before children. */
function* preOrder(node: AnyStateNode): Generator<AnyStateNode> {
  yield node;
  for (const child of Object.values(node.states)) yield* preOrder(child);
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

/** Edges for transitions that change state; lines for the rest (see the module comment). */
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

function collectTransitions(
  node: AnyStateNode,
  ids: Map<AnyStateNode, string>,
  eventNames: Map<string, string>,
  lines: string[],
  edges: string[],
): void {
  const add = (transition: AnyTransitionDefinition, label: string, internalLine: string): void => {
    const targets = transition.target ?? [];
    // Targetless transitions run actions without leaving the state: not an edge, but the state
    // still handles the event, so the box says so.
    if (targets.length === 0) lines.push(internalLine);
    for (const target of targets) {
      if (isComposite(node) && isInside(target, node)) {
        lines.push(`${internalLine} → ${relativePath(node, target)}`);
      } else {
        edges.push(`${idOf(ids, node)} --> ${idOf(ids, target)} : ${escapeText(label)}`);
      }
    }
  };

  for (const [eventType, transitions] of node.transitions) {
    // A state's own onDone is plain `done`; `done: <key>` is for one heard from elsewhere.
    const name =
      eventType === `xstate.done.state.${node.id}` ? 'done' : (eventNames.get(eventType) ?? eventType);
    for (const transition of transitions) {
      const label = withGuard(name, transition.guard);
      add(transition, label, `on ${label}`);
    }
  }
  for (const transition of node.always ?? []) {
    // An eventless transition is labelled by its guard alone, as in UML; unguarded, by `always`.
    const label = transition.guard === undefined ? 'always' : `[${guardLabel(transition.guard)}]`;
    add(transition, label, withGuard('always', transition.guard));
  }
}

/**
 * Mermaid never wraps the text inside a state box, so a long description would make the box
 * page-wide. Notes it wraps itself.
 */
function wrap(text: string): string[] {
  const width = 60;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

function withGuard(label: string, guard: unknown): string {
  return guard === undefined ? label : `${label} [${guardLabel(guard)}]`;
}

function relativePath(from: AnyStateNode, to: AnyStateNode): string {
  return to === from ? from.key : to.path.slice(from.path.length).join('.');
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

function stateLabel(node: AnyStateNode): string {
  if (node.type === 'history') return node.history === 'deep' ? 'H*' : 'H';
  return node.parent === undefined ? node.id : node.key;
}

/**
 * Mermaid reads `;` as a statement end and `#…;` as an entity, and its HTML labels would take
 * `<br>`: write those characters as entities. `end note` on its own would close a note.
 */
function escapeText(text: string): string {
  // One pass, so the `;` of an entity just written is not escaped again.
  return text
    .replace(/[#;"<>]/g, (char) => entities[char] ?? char)
    .replace(/\bend note\b/gi, (match) => match.replace(' ', '#32;'));
}

const entities: Record<string, string> = {
  '#': '#35;',
  ';': '#59;',
  '"': '#quot;',
  '<': '#lt;',
  '>': '#gt;',
};

function renderState(
  node: AnyStateNode,
  ids: Map<AnyStateNode, string>,
  details: Map<AnyStateNode, string[]>,
  depth: number,
): string[] {
  const indent = '  '.repeat(depth);
  const id = idOf(ids, node);
  const head = `${indent}state "${escapeText(stateLabel(node))}" as ${id}`;
  const lines = (details.get(node) ?? []).map((line) => line.trim()).filter((line) => line !== '');
  if (!isComposite(node)) {
    return [head, ...lines.flatMap(wrap).map((line) => `${indent}${id} : ${escapeText(line)}`)];
  }

  const inner = `${indent}  `;
  const out = [`${head} {`];
  const children = Object.values(node.states);
  if (node.type === 'compound') {
    for (const target of node.initial.target) out.push(`${inner}[*] --> ${idOf(ids, target)}`);
  }
  children.forEach((child, index) => {
    // Parallel regions are separated by `--`.
    if (node.type === 'parallel' && index > 0) out.push(`${inner}--`);
    out.push(...renderState(child, ids, details, depth + 1));
    if (child.type === 'final') out.push(`${inner}${idOf(ids, child)} --> [*]`);
  });
  out.push(`${indent}}`);
  if (lines.length > 0) {
    out.push(`${indent}note right of ${id}`, ...lines.map((line) => `${inner}${escapeText(line)}`));
    out.push(`${indent}end note`);
  }
  return out;
}
