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
import type { AnyStateMachine } from 'xstate';
import {
  type ChartState,
  chartStates,
  type Statechart,
  statechartOf,
} from '../src/inspector/statechart-graph.ts';

/** One Mermaid `stateDiagram-v2` for the machine, ending with a newline. Same machine, same text. */
export function machineToMermaid(machine: AnyStateMachine): string {
  return statechartToMermaid(statechartOf(machine));
}

/** The Mermaid text of a chart read by src/inspector/statechart-graph.ts (the walk the live view uses too). */
export function statechartToMermaid(chart: Statechart): string {
  const ids = assignIds(chart.root);
  const details = new Map<ChartState, string[]>();
  const edges: string[] = [];
  for (const state of chartStates(chart.root)) {
    const lines: string[] = [];
    if (state.description !== null) lines.push(...state.description.split('\n'));
    lines.push(...state.invokes);
    for (const transition of state.transitions) {
      // Targetless transitions run actions without leaving the state: not an edge, but the state
      // still handles the event, so the box says so.
      if (transition.kind !== 'history' && transition.targets.length === 0) lines.push(transition.line);
      for (const target of transition.targets) {
        const arrow = `${idOf(ids, state.path)} --> ${idOf(ids, target.path)}`;
        if (transition.kind === 'history') edges.push(arrow);
        else if (target.within !== null) lines.push(`${transition.line} → ${target.within}`);
        else edges.push(`${arrow} : ${escapeText(transition.label)}`);
      }
    }
    details.set(state, lines);
  }
  const out = ['stateDiagram-v2', ...renderState(chart.root, ids, details, 1)];
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
function assignIds(root: ChartState): Map<string, string> {
  const ids = new Map<string, string>();
  const taken = new Set<string>();
  const walk = (state: ChartState, parentId: string | undefined): void => {
    const base = parentId === undefined ? safeRootId(state.key) : `${parentId}_${safeSegment(state.key)}`;
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
    taken.add(id);
    ids.set(state.path, id);
    for (const child of state.children) walk(child, id);
  };
  walk(root, undefined);
  return ids;
}

function idOf(ids: Map<string, string>, path: string): string {
  const id = ids.get(path);
  if (id === undefined) throw new Error(`state ${path} is not part of the machine being drawn`);
  return id;
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
  state: ChartState,
  ids: Map<string, string>,
  details: Map<ChartState, string[]>,
  depth: number,
): string[] {
  const indent = '  '.repeat(depth);
  const id = idOf(ids, state.path);
  const head = `${indent}state "${escapeText(state.label)}" as ${id}`;
  const lines = (details.get(state) ?? []).map((line) => line.trim()).filter((line) => line !== '');
  if (state.type !== 'compound' && state.type !== 'parallel') {
    return [head, ...lines.flatMap(wrap).map((line) => `${indent}${id} : ${escapeText(line)}`)];
  }

  const inner = `${indent}  `;
  const out = [`${head} {`];
  for (const target of state.initial) out.push(`${inner}[*] --> ${idOf(ids, target)}`);
  state.children.forEach((child, index) => {
    // Parallel regions are separated by `--`.
    if (state.type === 'parallel' && index > 0) out.push(`${inner}--`);
    out.push(...renderState(child, ids, details, depth + 1));
    if (child.type === 'final') out.push(`${inner}${idOf(ids, child.path)} --> [*]`);
  });
  out.push(`${indent}}`);
  if (lines.length > 0) {
    out.push(`${indent}note right of ${id}`, ...lines.map((line) => `${inner}${escapeText(line)}`));
    out.push(`${indent}end note`);
  }
  return out;
}
