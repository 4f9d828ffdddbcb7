/**
 * The WebSocket protocol, whole, in one file: what a client may send and what the server sends.
 * Shaped after obs-websocket v5 (hello, request/response with a client id, events) and Home
 * Assistant's WebSocket API (auth first, id-correlated results, ping/pong). docs/websocket.md
 * documents it; the schemas here are the source of truth for both.
 */
import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { ErrorCode } from '../errors.ts';
import type { HudState, MatchSummary, RevealView, VetoStatus } from '../views.ts';

export const PROTOCOL_VERSION = 1;

/** Close codes of the service (the 1000s are the WebSocket standard's). */
export const CLOSE = {
  /** Missing, wrong or late token, or the token was regenerated. */
  unauthorized: 4401,
  /** Local network mode was switched off while a device was connected. */
  forbidden: 4403,
  /** The client did not read its messages: more than MAX_BUFFERED_BYTES were waiting. */
  tooSlow: 4008,
  /** A message over MAX_MESSAGE_BYTES (sent by the ws library). */
  tooLarge: 1009,
  /** The service is stopping. */
  goingAway: 1001,
} as const;

export const MAX_MESSAGE_BYTES = 64 * 1024;
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
export const AUTH_DEADLINE_MS = 5_000;
export const PING_INTERVAL_MS = 30_000;

const Id = Type.Union([Type.String({ maxLength: 128 }), Type.Number()], {
  description: 'Chosen by the client; echoed in the answer',
});

export const AuthMessage = Type.Object(
  { type: Type.Literal('auth'), token: Type.String({ maxLength: 512 }) },
  { additionalProperties: false, description: 'First message of a local-network client without ?token' },
);

export const TriggerMessage = Type.Object(
  {
    type: Type.Literal('trigger'),
    id: Type.Optional(Id),
    action: Type.String({ maxLength: 64, description: 'A command id from GET /api/actions' }),
    payload: Type.Optional(Type.Unknown({ description: 'The command payload, as over HTTP' })),
  },
  { additionalProperties: false },
);

export const PingMessage = Type.Object(
  { type: Type.Literal('ping'), id: Type.Optional(Id) },
  { additionalProperties: false, description: 'Application-level ping (browsers cannot send ping frames)' },
);

export const SnapshotRequest = Type.Object(
  { type: Type.Literal('snapshot'), id: Type.Optional(Id) },
  { additionalProperties: false, description: 'Asks for a fresh snapshot, e.g. after a revision gap' },
);

export const ClientMessage = Type.Union([TriggerMessage, PingMessage, SnapshotRequest, AuthMessage]);
export type ClientMessage = Static<typeof ClientMessage>;
type MessageId = Static<typeof Id>;

/** Everything a client needs to draw the HUD from scratch. */
export interface Snapshot {
  revision: number;
  state: HudState;
  match: MatchSummary;
  veto: VetoStatus;
  reveal: RevealView;
  presets: Array<{ id: string; name: string }>;
}

export type ServerMessage =
  | { type: 'hello'; service: string; version: string; protocol: number; snapshot: Snapshot }
  | { type: 'snapshot'; id: MessageId | null; snapshot: Snapshot }
  | { type: 'event'; event: string; revision: number; data: unknown }
  | {
      type: 'result';
      id: MessageId | null;
      action: string;
      ok: true;
      state: Partial<HudState> & { revision: number };
      result: object;
    }
  | {
      type: 'result';
      id: MessageId | null;
      action: string;
      ok: false;
      status: number;
      error: ErrorCode;
      message: string;
    }
  | { type: 'pong'; id: MessageId | null; revision: number }
  | { type: 'error'; id: MessageId | null; error: ErrorCode; message: string };
