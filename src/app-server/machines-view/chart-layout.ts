/**
 * Lays a statechart out for the Machines view with ELK (elkjs, in this process: nothing leaves the
 * machine). Compound and parallel states are ELK nodes with their children inside, so nesting and
 * regions come out as boxes in boxes; transitions are edges across the hierarchy, labelled with the
 * event, the guard and the actions. What is not an arrow (targetless transitions, transitions into a
 * state's own children) is listed inside the state, as in the Mermaid diagrams.
 */
import elkModule from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js';
import { type ChartState, chartStates, type Statechart } from '../../inspector/statechart-graph.ts';
import type { ChartBox, ChartEdge } from '../../protocol/machines-view.ts';

type ChartLine = ChartBox['lines'][number];

export interface StatechartLayout {
  machineId: string;
  width: number;
  height: number;
  states: ChartBox[];
  edges: ChartEdge[];
}

// The page draws with a monospace font at these sizes, so text widths are known here (docs/machines-view.md).
export const CHAR_WIDTH = 7.2;
export const LINE_HEIGHT = 16;
const PADDING = 10;
const WRAP = 44;
/**
 * Room kept on each side of an arrow's words: two labels side by side (arrows into one state) stay
 * three characters apart instead of reading as one line.
 */
const LABEL_MARGIN = 1.5 * CHAR_WIDTH;

const nodeId = (path: string) => `s:${path}`;

// The bundle is CommonJS with a default export in its types only (as mitt's, docs: TOOLCHAIN.md).
const ELK = elkModule as unknown as typeof elkModule.default;

/** The text lines a state box shows under its title, each transition's with its id. */
export function linesOf(state: ChartState): ChartLine[] {
  const lines: ChartLine[] = [];
  const text = (line: string) => lines.push({ text: line, transition: null });
  if (state.description !== null) wrap(state.description).forEach(text);
  state.invokes.forEach(text);
  for (const transition of state.transitions) {
    if (transition.kind === 'history') continue;
    if (transition.targets.length === 0) {
      lines.push({ text: actionsAfter(transition.line, transition.actions), transition: transition.id });
    }
    for (const target of transition.targets) {
      if (target.within !== null)
        lines.push({ text: `${transition.line} → ${target.within}`, transition: transition.id });
    }
  }
  return lines;
}

const actionsAfter = (label: string, actions: readonly string[]) =>
  actions.length === 0 ? label : `${label} / ${actions.join(', ')}`;

function textWidth(lines: readonly string[]): number {
  return Math.max(0, ...lines.map((line) => line.length)) * CHAR_WIDTH;
}

/** Lays the chart out; rejects when ELK cannot (a shape the view cannot draw). */
export async function layoutStatechart(chart: Statechart): Promise<StatechartLayout> {
  const elk = new ELK();
  const states = [...chartStates(chart.root)];
  const byPath = new Map(states.map((state) => [state.path, state]));
  const lines = new Map(states.map((state) => [state.path, linesOf(state)]));
  const initial = new Set(states.flatMap((state) => state.initial));
  const regions = new Set(
    states.filter((state) => state.type === 'parallel').flatMap((state) => state.children.map((c) => c.path)),
  );

  const header = (state: ChartState) => (1 + (lines.get(state.path)?.length ?? 0)) * LINE_HEIGHT + PADDING;
  const toNode = (state: ChartState): ElkNode => {
    const text = [state.label, ...(lines.get(state.path) ?? []).map((line) => line.text)];
    if (state.children.length === 0) {
      return {
        id: nodeId(state.path),
        width: Math.max(48, textWidth(text) + 2 * PADDING),
        height: text.length * LINE_HEIGHT + PADDING,
      };
    }
    return {
      id: nodeId(state.path),
      layoutOptions: {
        'elk.padding': `[top=${header(state) + PADDING},left=${PADDING * 2},bottom=${PADDING * 2},right=${PADDING * 2}]`,
        'elk.nodeSize.constraints': 'MINIMUM_SIZE',
        'elk.nodeSize.minimum': `(${textWidth(text) + 2 * PADDING}, ${header(state)})`,
        // Regions side by side, as parallel states are usually drawn.
        ...(state.type === 'parallel' ? { 'elk.direction': 'RIGHT' } : {}),
      },
      children: state.children.map(toNode),
    };
  };

  const edges: ElkExtendedEdge[] = [];
  for (const state of states) {
    for (const transition of state.transitions) {
      transition.targets.forEach((target, index) => {
        if (target.within !== null) return;
        if (!byPath.has(target.path)) throw new Error(`${chart.machineId}: no state ${target.path} to draw`);
        const text = actionsAfter(transition.label, transition.actions);
        edges.push({
          id: `${transition.id}#${index}`,
          sources: [nodeId(state.path)],
          targets: [nodeId(target.path)],
          labels:
            text === ''
              ? []
              : [{ text, width: text.length * CHAR_WIDTH + 2 * LABEL_MARGIN, height: LINE_HEIGHT }],
        });
      });
    }
  }

  const graph: ElkNode = {
    id: 'graph',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.json.edgeCoords': 'ROOT',
      'elk.json.shapeCoords': 'ROOT',
      'elk.edgeLabels.inline': 'false',
      'elk.layered.spacing.nodeNodeBetweenLayers': '36',
      'elk.spacing.nodeNode': '28',
      'elk.spacing.edgeLabel': '4',
      'elk.padding': '[top=8,left=8,bottom=8,right=8]',
    },
    children: [toNode(chart.root)],
    edges,
  };
  const laid = await elk.layout(graph);

  const boxes: ChartBox[] = [];
  const visit = (node: ElkNode) => {
    const path = node.id.slice(2);
    const state = byPath.get(path);
    if (!state) throw new Error(`${chart.machineId}: ELK returned an unknown node ${node.id}`);
    boxes.push({
      path,
      label: state.label,
      type: state.type,
      region: regions.has(path),
      initial: initial.has(path),
      x: node.x ?? 0,
      y: node.y ?? 0,
      width: node.width ?? 0,
      height: node.height ?? 0,
      lines: lines.get(path) ?? [],
    });
    for (const child of node.children ?? []) visit(child);
  };
  for (const child of laid.children ?? []) visit(child);

  const laidEdges: ChartEdge[] = [];
  const collect = (node: ElkNode) => {
    for (const edge of node.edges ?? []) {
      const section = edge.sections?.[0];
      const label = edge.labels?.[0];
      laidEdges.push({
        id: edge.id.replace(/#\d+$/, ''),
        source: edge.sources[0]?.slice(2) ?? '',
        target: edge.targets[0]?.slice(2) ?? '',
        label: label?.text ?? '',
        points: section ? [section.startPoint, ...(section.bendPoints ?? []), section.endPoint] : [],
        labelAt:
          label && label.x !== undefined && label.y !== undefined
            ? { x: label.x + LABEL_MARGIN, y: label.y }
            : null,
      });
    }
    for (const child of node.children ?? []) collect(child);
  };
  collect(laid);

  return {
    machineId: chart.machineId,
    width: laid.width ?? 0,
    height: laid.height ?? 0,
    states: boxes,
    edges: laidEdges,
  };
}

function wrap(text: string): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter((part) => part !== '')) {
      if (line !== '' && line.length + 1 + word.length > WRAP) {
        out.push(line);
        line = word;
      } else {
        line = line === '' ? word : `${line} ${word}`;
      }
    }
    if (line !== '') out.push(line);
  }
  return out;
}
