/**
 * The layering's rule for src/game/ (docs/architecture.md, "Game data"), beside test/architecture.test.ts:
 * the adapter holds no match rule and no lasting state outside the game actor.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}
/**
 * src/game/ is an adapter (docs/architecture.md, "Game data"): it checks, parses and rates frames
 * and tells the `game` actor, which owns the rules. What would put rules or lasting state back
 * outside an actor, each a finding with its file and line:
 * - a value imported from machines/ other than the game machine (a rule module such as
 *   game-sides.ts or map-names.ts, or host's sameRoster): its types are free, its rules are not;
 * - an actor other than `game` reached (`send`, `snapshot`, `actor`, `follow`), or the hub's events
 *   listened to: the game actor talks to the others by systemId;
 * - a timer of its own (`setTimeout`, `setInterval`, `queueMicrotask` …): receiving and stale are
 *   the actor's `after`;
 * - a module-level `let` or a class field that keeps what the actor keeps (sides, the stats pick,
 *   the dialect, a held frame, receiving, the roster, a score or result, a timer). Interfaces and
 *   parsed frames may name these: only what a module or an instance keeps between frames counts.
 */
const GAME_STATE = /(side|pick|dialect|held|receiving|roster|score|result|timer)/i;

function gameAdapterFindings(file: string, text: string): string[] {
  const findings: string[] = [];
  let inClass = false;
  for (const [index, line] of text.split('\n').entries()) {
    if (/^(export\s+)?(abstract\s+)?class\s/.test(line)) inClass = true;
    else if (line === '}') inClass = false;
    const at = `${file}:${index + 1}`;
    const from = /^\s*(import|export)\s+(?!type\b)[^'"]*?from\s+'([^']+)'/.exec(line);
    if (from?.[2]) {
      const target = from[2].startsWith('.') ? relative(ROOT, join(ROOT, dirname(file), from[2])) : from[2];
      if (target.startsWith('machines/') && target !== 'machines/game.machine.ts')
        findings.push(`${at} imports a rule from ${target}`);
    }
    for (const [, verb, key] of line.matchAll(/\.(send|snapshot|actor|follow)\(\s*'(\w+)'/g))
      if (key !== 'game') findings.push(`${at} reaches the ${key} actor (${verb})`);
    if (/\bhub\.emitter\.on\(/.test(line)) findings.push(`${at} listens to the hub's events`);
    if (/\b(setTimeout|setInterval|setImmediate|queueMicrotask)\(/.test(line))
      findings.push(`${at} has a timer of its own`);
    const variable = /^(?:let|var)\s+(\w+)/.exec(line);
    if (variable?.[1] && GAME_STATE.test(variable[1]))
      findings.push(`${at} keeps ${variable[1]} in the module`);
    const field =
      inClass && /^ {2}(?:(?:readonly|private|protected|public|static)\s+)*(#?\w+)\s*[:=]/.exec(line);
    if (field && field[1] !== undefined && GAME_STATE.test(field[1]))
      findings.push(`${at} keeps ${field[1]} outside the game actor`);
  }
  return findings;
}

describe('src/game/ is an adapter: the rules and what lasts are the game actor’s', () => {
  it('holds no match rule and no lasting state outside the actor', () => {
    const findings = sourceFiles('src/game').flatMap((file) =>
      gameAdapterFindings(file, readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(findings).toEqual([]);
  });

  it('finds each kind of breach (what src/game/game-data.ts held before the game actor)', () => {
    const file = 'src/game/game-data.ts';
    const before = [
      "import { sideChangesBetween } from '../../machines/game-sides.ts';",
      "import { type GameFacts, gameMachine } from '../../machines/game.machine.ts';",
      "import type { GameSide } from '../../machines/game-sides.ts';",
      'export class GameData {',
      '  #sidesAt: { map: string; round: number } | null = null;',
      '  #pick: number | null = null;',
      "  #dialect: ConsoleDialect = 'cs2';",
      '  #held: { frame: GameFrame } | null = null;',
      '  #timer: NodeJS.Timeout | null = null;',
      "    this.#hub.emitter.on('event', this.#onHubEvent);",
      "    const match = this.#hud.snapshot('match').context;",
      "      this.#hud.send('host', { type: 'host.roster', roster });",
      '    this.#timer = setTimeout(() => {}, this.#timeoutMs);',
      '}',
      'let heldFrame = null;',
    ].join('\n');
    expect(gameAdapterFindings(file, before)).toEqual([
      `${file}:1 imports a rule from machines/game-sides.ts`,
      `${file}:5 keeps #sidesAt outside the game actor`,
      `${file}:6 keeps #pick outside the game actor`,
      `${file}:7 keeps #dialect outside the game actor`,
      `${file}:8 keeps #held outside the game actor`,
      `${file}:9 keeps #timer outside the game actor`,
      `${file}:10 listens to the hub's events`,
      `${file}:11 reaches the match actor (snapshot)`,
      `${file}:12 reaches the host actor (send)`,
      `${file}:13 has a timer of its own`,
      `${file}:15 keeps heldFrame in the module`,
    ]);
  });
});
