/**
 * One actor's statechart as SVG, from the layout the server computed (src/app-server/machines-view/
 * chart-layout.ts): boxes in boxes for nested states, dashed regions for a parallel state's
 * children, arrows labelled event [guard] / actions. The active states and the transitions just
 * taken are marked (`data-active`, `data-taken`).
 */
import type { ChartBox, ChartLayout } from '../../protocol/machines-view.ts';

// The server measured the text with these (CHAR_WIDTH, LINE_HEIGHT in chart-layout.ts).
const LINE_HEIGHT = 16;
const PADDING = 10;

function StateBox({ box, active, taken }: { box: ChartBox; active: boolean; taken: Set<string> }) {
  const composite = box.type === 'compound' || box.type === 'parallel';
  const classes = ['chart-state', `chart-state--${box.type}`];
  if (box.region) classes.push('chart-state--region');
  if (active) classes.push('chart-state--active');
  return (
    <g
      class={classes.join(' ')}
      data-state={box.path}
      data-state-type={box.type}
      data-active={active ? 'yes' : 'no'}
      aria-label={`${box.label}${active ? ' (active)' : ''}`}
    >
      <rect x={box.x} y={box.y} width={box.width} height={box.height} rx={composite ? 10 : 6} />
      {box.type === 'final' ? (
        <rect
          class="chart-state__inner"
          x={box.x + 3}
          y={box.y + 3}
          width={box.width - 6}
          height={box.height - 6}
          rx={4}
        />
      ) : null}
      {box.initial ? <circle class="chart-initial" cx={box.x - 6} cy={box.y + 8} r={4} /> : null}
      <text x={box.x + PADDING} y={box.y + LINE_HEIGHT + 2} class="chart-state__label">
        {box.label}
      </text>
      {box.lines.map((line, index) => {
        const wasTaken = line.transition !== null && taken.has(line.transition);
        return (
          <text
            key={index}
            x={box.x + PADDING}
            y={box.y + LINE_HEIGHT * (index + 2) + 2}
            class={wasTaken ? 'chart-state__line chart-state__line--taken' : 'chart-state__line'}
            {...(line.transition === null
              ? {}
              : { 'data-transition': line.transition, 'data-taken': wasTaken ? 'yes' : 'no' })}
          >
            {line.text}
          </text>
        );
      })}
    </g>
  );
}

export function Chart({ chart, active, taken }: { chart: ChartLayout; active: string[]; taken: string[] }) {
  const on = new Set(active);
  const just = new Set(taken);
  const markerId = `arrow-${chart.actor}`;
  const takenMarkerId = `arrow-taken-${chart.actor}`;
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${chart.width} ${chart.height}`}
      width={chart.width}
      height={chart.height}
      role="img"
      aria-label={`State chart of ${chart.systemId}`}
      data-chart={chart.actor}
    >
      <defs>
        <marker
          id={markerId}
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto"
        >
          <path d="M0,0 L10,5 L0,10 z" class="chart-arrowhead" />
        </marker>
        <marker
          id={takenMarkerId}
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto"
        >
          <path d="M0,0 L10,5 L0,10 z" class="chart-arrowhead chart-arrowhead--taken" />
        </marker>
      </defs>
      {chart.states.map((box) => (
        <StateBox key={box.path} box={box} active={on.has(box.path)} taken={just} />
      ))}
      {chart.edges.map((edge, index) => {
        const wasTaken = just.has(edge.id);
        const points = edge.points.map((point) => `${point.x},${point.y}`).join(' ');
        return (
          <g
            key={`${edge.id}-${index}`}
            class={wasTaken ? 'chart-edge chart-edge--taken' : 'chart-edge'}
            data-transition={edge.id}
            data-taken={wasTaken ? 'yes' : 'no'}
          >
            <polyline points={points} marker-end={`url(#${wasTaken ? takenMarkerId : markerId})`} />
            {edge.labelAt ? (
              <text x={edge.labelAt.x} y={edge.labelAt.y + LINE_HEIGHT - 4} class="chart-edge__label">
                {edge.label}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
