/**
 * What the Machines view's stream adds to the entries of src/protocol/machines-view.ts: entries driven
 * by game frames are thinned for the actors a page does not show (docs/machines-view.md, "Cheap while
 * open"), and each entry sent says how many of its actor's entries were recorded before it and not
 * sent, so the timeline says "23 more" rather than hiding them.
 */
import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import { type MachinesStreamMessage, TimelineEntrySchema } from './machines-view.ts';

export const StreamedEntrySchema = Type.Composite([
  TimelineEntrySchema,
  Type.Object({
    unsent: Type.Integer({
      minimum: 0,
      description:
        'Entries of this actor recorded since the previous one sent and not sent to this page: game-frame entries of an actor the page does not show, thinned to a few a second (they are kept on the server; the page gets them all when it shows that actor)',
    }),
  }),
]);
export type StreamedEntry = Static<typeof StreamedEntrySchema>;

/** The stream's messages as a page receives them: `hello`'s timeline and each entry carry `unsent`. */
export type StreamedMessage =
  | (Extract<MachinesStreamMessage, { type: 'hello' }> & { timeline: StreamedEntry[] })
  | { type: 'entry'; entry: StreamedEntry };

/**
 * The stream's query: `focus`, the actor the page shows, whose every entry is sent. Unknown actor:
 * 404 `not_found` in the envelope.
 */
export const StreamQuerySchema = Type.Object(
  { focus: Type.Optional(Type.String({ maxLength: 64 })) },
  { additionalProperties: false },
);
export type StreamQuery = Static<typeof StreamQuerySchema>;

/**
 * Game-frame entries sent a second for an actor the page does not show (at most, and at least the
 * last one within 1/this second): enough to see it live; a state change is always sent at once.
 */
export const THINNED_PER_SECOND = 4;
