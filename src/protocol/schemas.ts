/** TypeBox schemas of the payload pieces that several commands share. */
import type { TLiteral, TUnion } from '@sinclair/typebox';
import { FormatRegistry, Type } from '@sinclair/typebox';
import { ACTIVE_DUTY_AS_OF, ACTIVE_DUTY_POOL } from '../../machines/map-names.ts';
import { LOGO_STATES, TAG_LENGTH } from '../../machines/team-logo.ts';
import { BO_FORMATS, POOL_SIZE, STEP_TYPES } from '../../machines/veto-rules.ts';
import {
  OBSERVER_MODES,
  POSITIONS,
  SCENES,
  STATS_PROVIDERS,
  TEAM_FORMATS,
} from '../../machines/vocabulary.ts';
import { MEDIA_ID_PATTERN, MEDIA_PATH } from './media.ts';

const MEDIA_ADDRESS = new RegExp(`^${MEDIA_PATH}/${MEDIA_ID_PATTERN}$`);

// A logo's address: http(s) and data URLs, and (an addition to the spec) an uploaded image's
// address on the application server, /media/<id> (docs/api.md, "Team").
FormatRegistry.Set('url', (value) => {
  if (MEDIA_ADDRESS.test(value)) return true;
  try {
    return ['http:', 'https:', 'data:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
});

/** A union of string literals from a constant list, so schemas and machines share one list. */
export function OneOf<const T extends readonly string[]>(
  values: T,
  options: { description?: string } = {},
): TUnion<TLiteral<T[number]>[]> {
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  );
}

export const strict = { additionalProperties: false } as const;

export const TeamSchema = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '\\S',
      description: 'Team name, at most 64 characters',
    }),
    logo: Type.Optional(
      Type.String({
        format: 'url',
        maxLength: 2048,
        description:
          'Logo: an http(s) URL (the server fetches it once and the pages show its copy), a data URL, or an uploaded image /media/<id>',
      }),
    ),
    tag: Type.Optional(
      Type.String({
        minLength: TAG_LENGTH.min,
        maxLength: TAG_LENGTH.max,
        pattern: '\\S',
        description: `Short tag shown where the name does not fit (NAVI, G2), ${TAG_LENGTH.min} to ${TAG_LENGTH.max} characters`,
      }),
    ),
  },
  strict,
);

/** What the server holds of a team's logo, and what its pages load (not in the spec; docs/api.md). */
export const LogoStatusSchema = Type.Object(
  {
    state: OneOf(LOGO_STATES, {
      description:
        'fetching: the server is loading it (the pages show the initials); stored: the pages load src; failed: reason says why (the pages show the initials)',
    }),
    src: Type.Optional(
      Type.String({
        description: 'What the pages load: /media/<id> on the application server, or the data URL',
      }),
    ),
    reason: Type.Optional(Type.String({ description: 'Why the logo could not be stored' })),
  },
  strict,
);

export const BoFormatSchema = OneOf(BO_FORMATS, { description: 'Series format' });
export const SideSchema = OneOf(['A', 'B'] as const);
export const MapNameSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'Map name, with or without the prefix de_ (mirage, de_mirage, Mirage)',
});
/**
 * veto_start's mapPool. Its default is the built-in one, what an operator sees before changing
 * anything; what runs without a mapPool is the pool saved in the settings (`veto.mapPool`).
 */
export const MapPoolSchema = Type.Array(MapNameSchema, {
  maxItems: POOL_SIZE.max,
  default: [...ACTIVE_DUTY_POOL],
  description: `The maps of the veto. Without it: the map pool of the operator app's veto page (settings veto.mapPool), the CS2 Active Duty pool of ${ACTIVE_DUTY_AS_OF} (this default) until the operator changes it`,
});
export const SceneSchema = OneOf(SCENES);
export const PositionSchema = OneOf(POSITIONS);
export const ObserverModeSchema = OneOf(OBSERVER_MODES);
export const TeamFormatSchema = OneOf(TEAM_FORMATS);
export const StepTypeSchema = OneOf(STEP_TYPES);
export const StatsProviderSchema = OneOf(STATS_PROVIDERS, { description: 'Source of the stats' });

export const VetoStepSchema = Type.Object(
  {
    type: StepTypeSchema,
    team: Type.Optional(
      Type.Union([SideSchema, Type.Null()], { description: 'A or B; none for the decider' }),
    ),
    map: MapNameSchema,
  },
  strict,
);
