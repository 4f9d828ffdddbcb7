/**
 * The automatic observer as a client sees it: GET /api/observer, the `observer` event and the
 * `observer` part of hello's snapshot (docs/observer.md, docs/api.md). Built by observerViewOf
 * (src/core/views.ts) from the observer actor; times are the service's clock in ms since the epoch.
 */
import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { CameraFollow, CutOutcome, LinkReason } from '../../machines/observer.machine.ts';
import { REASONS } from '../../machines/observer-director.ts';
import { CUT_STRATEGIES } from '../../machines/observer-strategies.ts';
import type { CommandContract } from './commands.ts';
import { ObserverModeSchema, OneOf } from './schemas.ts';

export const OBSERVER_LINK_REASONS = [
  'not_auto',
  'refused',
  'unreachable',
  'timeout',
  'address_refused',
  'closed',
] as const satisfies readonly LinkReason[];

const CAMERA_FOLLOWS = [
  'pending',
  'following',
  'ignored',
  'moved_away',
] as const satisfies readonly CameraFollow[];

const CUT_OUTCOMES = [
  'pending',
  'followed',
  'not_followed',
  'already_shown',
  'target_died',
  'replaced',
] as const satisfies readonly CutOutcome[];

export const CutStrategySchema = OneOf(CUT_STRATEGIES, {
  description:
    'How a cut names the player: name (spec_player "name"), name_lock (name, then the lock on the account and first-person), lock (spec_lock_to_accountid), csgo (spec_player_by_accountid); docs/observer.md',
});

export const OBSERVER_CONNECTIONS = ['off', 'connecting', 'connected', 'disconnected'] as const;

const Slot = Type.Integer({
  minimum: 0,
  maximum: 9,
  description: 'HUD slot: the number key to press (1 to 9, then 0)',
});
const Reason = OneOf(REASONS, { description: 'Why this player is worth watching (docs/observer.md)' });

export const ObserverSuggestionSchema = Type.Object(
  {
    slot: Slot,
    name: Type.String({ description: 'As the game reports it: free text, never sent to the game' }),
    steamid: Type.String(),
    side: OneOf(['CT', 'T'] as const),
    reason: Reason,
    text: Type.String({ description: 'The reason in words, for the operator' }),
    since: Type.Number({ description: 'When this player became the suggestion (ms since the epoch)' }),
  },
  { additionalProperties: false },
);

export const ObserverCutSchema = Type.Object(
  {
    slot: Slot,
    name: Type.String(),
    steamid: Type.String(),
    reason: Reason,
    text: Type.String(),
    at: Type.Number({ description: 'When the director cut to this player (ms since the epoch)' }),
    sent: Type.Boolean({ description: 'The cut went to the game (auto mode, console connected)' }),
    strategy: Type.Union([CutStrategySchema, Type.Null()], {
      description: 'How it was sent (null: not sent)',
    }),
    outcome: Type.Union([OneOf(CUT_OUTCOMES), Type.Null()], {
      description:
        'What the frames showed: followed, not_followed (not within 1.5 s), already_shown (proves nothing), target_died, replaced (cut again before they could tell), pending',
    }),
    followedAfterMs: Type.Union([Type.Number(), Type.Null()], {
      description: 'Frame time from the cut to the first frame showing the player',
    }),
  },
  { additionalProperties: false },
);

/** How the observer moves the camera and whether it does (observerStatusOf's `camera`). */
export const ObserverCameraSchema = Type.Object(
  {
    strategy: Type.Union([CutStrategySchema, Type.Null()], {
      description: 'The strategy the next cut uses (null: every one failed)',
    }),
    source: OneOf(['pinned', 'proven', 'probing'] as const, {
      description: 'pinned by the operator, proven by the frames this game session, or being probed',
    }),
    exhausted: Type.Boolean({
      description: 'No strategy moved the camera: auto only suggests until probe again',
    }),
    text: Type.String({ description: 'The whole story in one sentence, for the operator' }),
  },
  { additionalProperties: false },
);

export const ObserverViewSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    mode: ObserverModeSchema,
    cinematicEnabled: Type.Boolean(),
    subscriptionActive: Type.Boolean({
      description: 'Enabling needs it: the operator app switches it in Integrations > Observer',
    }),
    state: OneOf(['disabled', 'suggest', 'auto'] as const, {
      description: 'What runs now: disabled also while enabled without an active subscription',
    }),
    blockedBy: Type.Union([Type.Literal('no_subscription'), Type.Null()], {
      description: 'Why an enabled observer does not run',
    }),
    link: Type.Object(
      {
        connection: OneOf(OBSERVER_CONNECTIONS, {
          description:
            'The link to the game console: off (not auto mode: the game is never touched), connecting, connected, disconnected (retrying)',
        }),
        address: Type.String({ description: 'host:port of the game console ([v6]:port for IPv6)' }),
        host: Type.String(),
        port: Type.Integer({ minimum: 1, maximum: 65_535 }),
        reason: Type.Union([OneOf(OBSERVER_LINK_REASONS), Type.Null()], {
          description:
            'Why it is not connected: not_auto, refused (nothing listens: is the game started with -netconport?), unreachable, timeout, address_refused, closed',
        }),
        message: Type.Union([Type.String(), Type.Null()], { description: 'The last failure, in words' }),
      },
      { additionalProperties: false },
    ),
    launch: Type.Object(
      {
        options: Type.String({
          description:
            "The observer PC's CS2 launch options for the console link (-netconport <port> -tools)",
        }),
        missing: Type.Union([Type.String(), Type.Null()], {
          description: 'The launch option the link failure probably points at (refused: -netconport <port>)',
        }),
        advice: Type.Union([Type.String(), Type.Null()], {
          description: 'What to do about the link failure, in words (null while nothing is wrong)',
        }),
      },
      { additionalProperties: false },
    ),
    cameraFollows: Type.Union([OneOf(CAMERA_FOLLOWS), Type.Null()], {
      description:
        'Whether the game camera followed the last cut: pending, following, ignored (not within 1.5 s), moved_away (it followed, then showed someone else)',
    }),
    camera: ObserverCameraSchema,
    suggestion: Type.Union([ObserverSuggestionSchema, Type.Null()]),
    holdingUntil: Type.Union([Type.Number(), Type.Null()], {
      description: 'Cinematic freeze camera: the camera stays on a death until then',
    }),
    lastCut: Type.Union([ObserverCutSchema, Type.Null()]),
    cuts: Type.Array(ObserverCutSchema, { maxItems: 8, description: 'The last cuts, oldest first' }),
  },
  { additionalProperties: false },
);
export type ObserverView = Static<typeof ObserverViewSchema>;

/** POST /api/actions/set_observer_console's payload, and the address part of the saved state. */
export const NetconAddressSchema = Type.Object(
  {
    host: Type.String({
      minLength: 1,
      maxLength: 64,
      description:
        'IP address of the PC running the game: loopback or the local network (127.0.0.1, 192.168.1.20)',
    }),
    port: Type.Integer({ minimum: 1, maximum: 65_535, description: "The game's -netconport" }),
  },
  { additionalProperties: false },
);

/**
 * The closed loop's commands (docs/observer.md, "Cut strategies"). Declared here beside the view they
 * answer with; src/protocol/commands.ts spreads them into COMMAND_CONTRACTS.
 */
const CameraAnswer = Type.Object(
  { camera: ObserverCameraSchema, cameraFollows: ObserverViewSchema.properties.cameraFollows },
  { additionalProperties: false, description: 'How the camera is moved now, and whether it follows' },
);
export const OBSERVER_LOOP_CONTRACTS = {
  observer_test_cut: {
    description:
      'Cuts the game camera to the current suggestion now, in suggest or auto mode, and judges it like any cut (the frames must show him within 1.5 s). 409 when the console is not connected or nothing is suggested yet.',
    needsMainWindow: false,
    stateKeys: [],
    payload: null,
    result: CameraAnswer,
  },
  observer_probe_again: {
    description:
      'Forgets which cut strategy worked (or that none did) and tries them again from the first, one cut each.',
    needsMainWindow: false,
    stateKeys: [],
    payload: null,
    result: CameraAnswer,
  },
  observer_pin: {
    description:
      'Uses only this cut strategy from now on, whatever the frames show (null: learn it from the frames again).',
    needsMainWindow: false,
    stateKeys: [],
    payload: Type.Object(
      { strategy: Type.Union([CutStrategySchema, Type.Null()]) },
      { additionalProperties: false },
    ),
    result: CameraAnswer,
  },
} as const satisfies Record<string, CommandContract>;
