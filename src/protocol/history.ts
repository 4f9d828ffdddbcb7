/**
 * The crew's undo history and what an import changes (issue 33): the pieces of the `undo`, `redo`
 * and `import_match_veto` results and of the HUD state's `history`.
 */
import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import { HISTORY_BOUND } from '../../machines/vocabulary.ts';
import { strict, TeamSchema } from './schemas.ts';

/** How many changes the history keeps each way (undo and redo): the oldest goes first. */
export const HISTORY_LIMIT = HISTORY_BOUND;

export const HistoryEntrySchema = Type.Object(
  {
    label: Type.String({
      description: 'What was done, in words a crew reads: "Import: NaVi vs FaZe (replaced 2 results)"',
    }),
    at: Type.String({ description: 'When it was done, ISO 8601 in UTC' }),
  },
  strict,
);
export type HistoryEntry = Static<typeof HistoryEntrySchema>;

export const HistorySchema = Type.Object(
  {
    undo: Type.Array(HistoryEntrySchema, {
      maxItems: HISTORY_LIMIT,
      description: 'Changes of the match and the veto that undo takes back, most recent first',
    }),
    redo: Type.Array(HistoryEntrySchema, {
      maxItems: HISTORY_LIMIT,
      description: 'Changes undone that redo makes again, most recent first; a new change empties it',
    }),
  },
  { ...strict, description: 'The undo history of the match and the veto (not in the spec)' },
);
export type History = Static<typeof HistorySchema>;

/** A series map of the import's preview: whether its result stays. */
const PlannedMapSchema = Type.Object(
  {
    number: Type.Integer({ minimum: 1, maximum: 5 }),
    map: Type.String({ description: 'Full map name, de_mirage' }),
    label: Type.String(),
    keepsResult: Type.Boolean({ description: 'The result this series map has now stays' }),
  },
  strict,
);

/** A result of the series that applying the import replaces. */
const LostResultSchema = Type.Object(
  {
    number: Type.Integer({ minimum: 1, maximum: 5 }),
    map: Type.String(),
    label: Type.String(),
    scoreA: Type.Integer({ minimum: 0, maximum: 99 }),
    scoreB: Type.Integer({ minimum: 0, maximum: 99 }),
    finished: Type.Boolean(),
  },
  strict,
);

export const ImportChangesSchema = Type.Object(
  {
    teamA: TeamSchema,
    teamB: TeamSchema,
    teamsKept: Type.Boolean({
      description:
        "The imported teams are the match's (by name or tag): its A/B order, names, tags and logos stay",
    }),
    swapped: Type.Boolean({
      description: 'The source lists them the other way round; the veto was turned to the match’s order',
    }),
    maps: Type.Array(PlannedMapSchema),
    lostResults: Type.Array(LostResultSchema, {
      description: 'Results (finished, or rounds played) the import replaces; empty when none is lost',
    }),
  },
  {
    ...strict,
    description:
      'What applying the import changes on the match (with apply false: what it would change, a preview); not in the spec',
  },
);
export type ImportChanges = Static<typeof ImportChangesSchema>;
