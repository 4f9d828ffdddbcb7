import { describe, expect, it } from 'vitest';
import { and, createMachine, fromPromise, not, setup } from 'xstate';
import { machineToMermaid } from '../../scripts/statechart-mermaid.ts';

/** Trimmed lines, so assertions are about content, not indentation. */
function linesOf(diagram: string): string[] {
  return diagram.split('\n').map((line) => line.trim());
}

/** The trimmed lines directly inside the block `state "…" as <id> {`, nested blocks included. */
function blockOf(diagram: string, id: string): string[] {
  const lines = linesOf(diagram);
  const start = lines.findIndex((line) => line.endsWith(` as ${id} {`));
  if (start === -1) throw new Error(`no block for ${id} in:\n${diagram}`);
  let depth = 0;
  for (let end = start; end < lines.length; end++) {
    const line = lines[end] ?? '';
    if (line.endsWith('{')) depth++;
    if (line === '}') depth--;
    if (depth === 0) return lines.slice(start + 1, end);
  }
  throw new Error(`unclosed block for ${id}`);
}

function transitionsOf(diagram: string): string[] {
  const lines = linesOf(diagram);
  return lines.slice(lines.indexOf('%% transitions') + 1).filter((line) => line !== '');
}

describe('machineToMermaid', () => {
  it('nests compound states, with initial arrows inside each block', () => {
    const machine = createMachine({
      id: 'veto',
      initial: 'idle',
      states: {
        idle: { on: { 'veto.start': 'running' } },
        running: {
          initial: 'banning',
          states: { banning: { on: { 'veto.next': 'picking' } }, picking: {} },
        },
      },
    });
    const diagram = machineToMermaid(machine);

    expect(linesOf(diagram)[0]).toBe('stateDiagram-v2');
    expect(blockOf(diagram, 'veto')).toEqual([
      '[*] --> veto_idle',
      'state "idle" as veto_idle',
      'state "running" as veto_running {',
      '[*] --> veto_running_banning',
      'state "banning" as veto_running_banning',
      'state "picking" as veto_running_picking',
      '}',
    ]);
    expect(transitionsOf(diagram)).toEqual([
      'veto_idle --> veto_running : veto.start',
      'veto_running_banning --> veto_running_picking : veto.next',
    ]);
  });

  it('separates parallel regions with --', () => {
    const machine = createMachine({
      id: 'hud',
      type: 'parallel',
      states: {
        scoreboard: { initial: 'shown', states: { shown: { on: { hide: 'hidden' } }, hidden: {} } },
        ticker: {},
      },
    });
    expect(blockOf(machineToMermaid(machine), 'hud')).toEqual([
      'state "scoreboard" as hud_scoreboard {',
      '[*] --> hud_scoreboard_shown',
      'state "shown" as hud_scoreboard_shown',
      'state "hidden" as hud_scoreboard_hidden',
      '}',
      '--',
      'state "ticker" as hud_ticker',
    ]);
  });

  it('labels guarded events and always transitions by their guards, and always alone when unguarded', () => {
    const machine = setup({
      guards: { isBanPhaseOver: () => true, isComplete: () => true, hasTeams: () => true },
    }).createMachine({
      id: 'veto',
      initial: 'idle',
      states: {
        idle: { on: { 'veto.start': { target: 'banning', guard: 'hasTeams' } } },
        banning: { always: { target: 'picking', guard: and(['isBanPhaseOver', not('isComplete')]) } },
        picking: { always: [{ target: 'done', guard: 'isComplete' }, { target: 'idle' }] },
        done: {},
      },
    });
    expect(transitionsOf(machineToMermaid(machine))).toEqual([
      'veto_idle --> veto_banning : veto.start [hasTeams]',
      'veto_banning --> veto_picking : [isBanPhaseOver and not isComplete]',
      'veto_picking --> veto_done : [isComplete]',
      'veto_picking --> veto_idle : always',
    ]);
  });

  it('labels delayed transitions with the delay name or milliseconds', () => {
    const machine = setup({ delays: { reconnectDelay: 2000 } }).createMachine({
      id: 'obs',
      initial: 'waiting',
      states: {
        waiting: { after: { reconnectDelay: 'connecting' } },
        connecting: { after: { 500: 'waiting' } },
      },
    });
    expect(transitionsOf(machineToMermaid(machine))).toEqual([
      'obs_waiting --> obs_connecting : after reconnectDelay',
      'obs_connecting --> obs_waiting : after 500ms',
    ]);
  });

  it('names the invoked actor in the state and on its done and error edges', () => {
    const machine = setup({ actors: { fetchMapPool: fromPromise(async () => ['de_dust2']) } }).createMachine({
      id: 'maps',
      initial: 'loading',
      states: {
        loading: { invoke: { src: 'fetchMapPool', onDone: 'ready', onError: 'failed' } },
        ready: {},
        failed: {},
      },
    });
    const diagram = machineToMermaid(machine);
    expect(linesOf(diagram)).toContain('maps_loading : invokes fetchMapPool');
    expect(transitionsOf(diagram)).toEqual([
      'maps_loading --> maps_ready : done: fetchMapPool',
      'maps_loading --> maps_failed : error: fetchMapPool',
    ]);
  });

  it('ends final states with [*] inside their parent, and draws a state onDone as done', () => {
    const machine = createMachine({
      id: 'veto',
      initial: 'running',
      states: {
        running: {
          initial: 'banning',
          states: { banning: { on: { 'veto.finish': 'complete' } }, complete: { type: 'final' } },
          onDone: 'summary',
        },
        summary: {},
      },
    });
    const diagram = machineToMermaid(machine);
    expect(blockOf(diagram, 'veto_running')).toContain('veto_running_complete --> [*]');
    expect(transitionsOf(diagram)).toContain('veto_running --> veto_summary : done');
  });

  it('shows descriptions as lines in atomic states and as a note beside composite states', () => {
    const machine = createMachine({
      id: 'veto',
      description: 'One map veto',
      initial: 'idle',
      states: {
        idle: { description: 'Waiting for both teams' },
        running: { description: 'Teams ban and pick\nin turn', initial: 'banning', states: { banning: {} } },
      },
    });
    const lines = linesOf(machineToMermaid(machine));
    expect(lines).toContain('veto_idle : Waiting for both teams');
    const note = lines.indexOf('note right of veto_running');
    expect(lines.slice(note, note + 4)).toEqual([
      'note right of veto_running',
      'Teams ban and pick',
      'in turn',
      'end note',
    ]);
    expect(lines).toContain('One map veto');
  });

  it('wraps long descriptions inside state boxes, which Mermaid does not wrap', () => {
    const description =
      'OBS is away: waits 1, 2, 5, then every 10 s (jittered) before the next try, and shows connecting';
    const machine = createMachine({ id: 'obs', initial: 'backoff', states: { backoff: { description } } });
    const lines = linesOf(machineToMermaid(machine)).filter((line) => line.startsWith('obs_backoff : '));
    expect(lines).toEqual([
      'obs_backoff : OBS is away: waits 1, 2, 5, then every 10 s (jittered)',
      'obs_backoff : before the next try, and shows connecting',
    ]);
  });

  it('lists targetless transitions and transitions into a composite’s own children in the state, not as edges', () => {
    const machine = setup({
      guards: { isMapAvailable: () => true },
      actions: { recordStep: () => {} },
    }).createMachine({
      id: 'veto',
      initial: 'banning',
      on: { 'veto.reset': '.banning' },
      states: {
        banning: { on: { 'veto.ban': { guard: 'isMapAvailable', actions: 'recordStep' } } },
      },
    });
    const diagram = machineToMermaid(machine);
    const lines = linesOf(diagram);
    expect(lines).toContain('veto_banning : on veto.ban [isMapAvailable]');
    expect(lines).toContain('on veto.reset → banning');
    expect(lines).not.toContain('%% transitions');
  });

  it('draws wildcard events and explicit self-transitions as edges', () => {
    const machine = createMachine({
      id: 'log',
      initial: 'listening',
      states: { listening: { on: { '*': 'listening', 'veto.*': 'vetoSeen' } }, vetoSeen: {} },
    });
    expect(transitionsOf(machineToMermaid(machine))).toEqual([
      'log_listening --> log_listening : *',
      'log_listening --> log_vetoSeen : veto.*',
    ]);
  });

  it('draws history states with their default target', () => {
    const machine = createMachine({
      id: 'veto',
      initial: 'running',
      states: {
        running: {
          initial: 'banning',
          states: {
            banning: {},
            picking: {},
            resume: { type: 'history', history: 'deep', target: 'picking' },
          },
        },
        paused: { on: { 'veto.resume': '#veto.running.resume' } },
      },
    });
    const diagram = machineToMermaid(machine);
    expect(blockOf(diagram, 'veto_running')).toContain('state "H*" as veto_running_resume');
    expect(transitionsOf(diagram)).toEqual([
      'veto_running_resume --> veto_running_picking',
      'veto_paused --> veto_running_resume : veto.resume',
    ]);
  });

  it('makes ids Mermaid-safe and unique, and escapes text Mermaid would parse', () => {
    const machine = createMachine({
      id: 'map-veto.v2',
      initial: 'map-pool',
      states: {
        'map-pool': { description: 'Seven maps; see "rules" #1', on: { 'ban.map': 'map_pool' } },
        map_pool: {},
      },
    });
    const diagram = machineToMermaid(machine);
    const lines = linesOf(diagram);
    expect(lines).toContain('state "map-pool" as map_veto_v2_map_pool');
    expect(lines).toContain('state "map_pool" as map_veto_v2_map_pool_2');
    expect(lines).toContain('map_veto_v2_map_pool : Seven maps#59; see #quot;rules#quot; #35;1');
    expect(transitionsOf(diagram)).toEqual(['map_veto_v2_map_pool --> map_veto_v2_map_pool_2 : ban.map']);
  });

  it('is deterministic and declares every state before the first edge, as Mermaid needs', () => {
    const build = () =>
      createMachine({
        id: 'veto',
        initial: 'a',
        states: {
          a: { on: { next: 'b.y' } },
          b: { initial: 'x', states: { x: {}, y: { on: { back: '#veto.a' } } } },
        },
      });
    const diagram = machineToMermaid(build());
    expect(machineToMermaid(build())).toBe(diagram);

    const lines = linesOf(diagram);
    const edgesStart = lines.indexOf('%% transitions');
    const declared = new Set(
      lines.slice(0, edgesStart).flatMap((line) => /^state ".*" as (\S+)/.exec(line)?.slice(1) ?? []),
    );
    for (const edge of transitionsOf(diagram)) {
      const [from, to] = edge.split(' : ')[0]?.split(' --> ') ?? [];
      expect(declared, edge).toContain(from);
      expect(declared, edge).toContain(to);
    }
  });
});
