/**
 * What the HUD overlay and the scene pages read alike from the state: team names and logos, the
 * series maps, the roster by slot, the colour presets of the theme. Nothing here computes what the
 * server already knows; it only picks from the signals.
 */
import { computed } from '@preact/signals';
import { mapLabel } from '../../../machines/map-names.ts';
import { derivedTag } from '../../../machines/team-logo.ts';
import type { MapView, MatchSummary } from '../../protocol/index.ts';
import { match, presets, state } from './store.ts';

export type Side = 'A' | 'B';

/** The colour presets the overlay's theme defines (styles in common/broadcast.css). */
export const THEME_PRESETS = [
  { id: 'midnight', name: 'Midnight' },
  { id: 'crimson', name: 'Crimson' },
  { id: 'arctic', name: 'Arctic' },
  { id: 'neon', name: 'Neon' },
] as const;
export const DEFAULT_PRESET = THEME_PRESETS[0].id;

/** The preset on screen: the applied one when the theme has it, the theme's first otherwise. */
export const activePreset = computed(() => {
  const id = presets.value.activePresetId;
  return THEME_PRESETS.some((preset) => preset.id === id) && id ? id : DEFAULT_PRESET;
});

export interface TeamView {
  side: Side;
  name: string;
  /** The team's tag, or a short form of its name (derivedTag: NV, FAZE, ASTR) when it has none. */
  tag: string;
  /**
   * What the page loads for the logo: the server's stored copy, an upload or a data URL; null while
   * the server fetches it, when it could not, and without a logo (the initials tile shows then).
   */
  logo: string | null;
  /** Maps won in the series. */
  seriesScore: number;
}

export function teamOf(summary: MatchSummary | null, side: Side): TeamView {
  const team = side === 'A' ? summary?.teamA : summary?.teamB;
  const name = team?.name ?? `Team ${side}`;
  const logo = summary?.logos[side];
  return {
    side,
    name,
    tag: team?.tag ?? derivedTag(name),
    logo: logo?.state === 'stored' ? (logo.src ?? null) : null,
    seriesScore: side === 'A' ? (summary?.seriesScore.a ?? 0) : (summary?.seriesScore.b ?? 0),
  };
}

export const teams = computed(() => ({ A: teamOf(match.value, 'A'), B: teamOf(match.value, 'B') }));

/** The stable hooks of a series map (docs/themes.md), the same on the top bar and the map recap. */
export function seriesMapHooks(entry: MapView) {
  const winner = entry.winnerSide;
  return {
    'data-map-number': entry.number,
    'data-map': entry.map,
    'data-score-a': entry.scoreA,
    'data-score-b': entry.scoreB,
    'data-finished': String(entry.finished),
    'data-picked': entry.pickedSide,
    ...(winner ? { 'data-winner': winner } : {}),
  };
}

/** The map being played: the first one not finished, or the last one once all are. */
export const currentMap = computed(() => {
  const maps = match.value?.maps ?? [];
  return maps.find((entry) => !entry.finished) ?? maps[maps.length - 1] ?? null;
});

/** The display name of a full map name. */
export const labelOf = (map: string) => match.value?.maps.find((m) => m.map === map)?.label ?? mapLabel(map);

/*
 * Numbers are put on screen as strings (String(n)): Preact rewrites a text node holding the number 0
 * on every render, which a mutation observer (and a theme's transition) sees as a change.
 */

/** HUD slots in the order of the game's keys: 1 to 9, then 0. */
export const SLOTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0] as const;

/** The player name in a HUD slot, from the roster. */
export const playerIn = (slot: number): string | null =>
  state.value?.roster.find((entry) => entry.slot === slot)?.name ?? null;

/** The two halves of the observer slots: 1-5 one team, 6-9 and 0 the other. */
export const slotsOf = (side: Side): readonly number[] => (side === 'A' ? SLOTS.slice(0, 5) : SLOTS.slice(5));

/**
 * A person's monogram: the first letters of the first and the last word, with a nickname in quote
 * marks left out and anything that is not a letter or a digit skipped (`James "JB" Bardolph` is JB,
 * not J"B; an emoji makes no letter).
 */
export function monogramOf(name: string): string {
  const bare = name.replace(/["“”„«»‹›]([^"“”„«»‹›]*)["“”„«»‹›]/gu, ' ');
  const words = bare
    .split(/\s+/)
    .map((word) => word.match(/[\p{L}\p{N}]/u)?.[0] ?? '')
    .filter(Boolean);
  const letters = words.length > 1 ? [words[0], words.at(-1)] : words;
  if (letters.length === 0) return [...name.trim()].slice(0, 1).join('').toUpperCase();
  return letters.join('').toUpperCase();
}

/** Two or three letters for a team without a logo. */
export function initialsOf(name: string): string {
  const words = name.split(/\s+/).filter(Boolean);
  if (words.length >= 2)
    return words
      .slice(0, 3)
      .map((word) => word[0])
      .join('')
      .toUpperCase();
  return name.slice(0, 3).toUpperCase();
}
