/**
 * The wire contract, for the server and for the pages alike: the schemas and types of every answer,
 * payload piece, WebSocket message and error code. Nothing below this module imports Node (a test
 * bundles it for the browser), so the operator app and the HUD pages import the very definitions
 * the server validates and serialises with.
 */
export * from './answers.ts';
export * from './commands.ts';
export type { ErrorCode } from './errors.ts';
export { ERROR_STATUS } from './errors.ts';
export * from './game.ts';
export * from './hotkeys.ts';
export * from './history.ts';
export * from './media.ts';
export * from './observer.ts';
export * from './panels.ts';
export * from './recorder.ts';
export * from './schemas.ts';
export * from './settings.ts';
export * from './streams.ts';
export * from './teams.ts';
export * from './websocket.ts';
