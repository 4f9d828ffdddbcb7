import type { Logger } from 'pino';
import { pino } from 'pino';

export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LoggerOptions {
  level: LogLevel;
  format: LogFormat;
}

/** Readable lines for a person at a terminal; JSON for whatever reads a pipe or a file. */
export const defaultLogFormat = (stdout: { isTTY?: boolean }): LogFormat =>
  stdout.isTTY ? 'pretty' : 'json';

/**
 * The console log: one line per entry on stdout, with secrets redacted whatever object carries them.
 * pino-pretty loads only for readable lines: a service whose output goes to a pipe never needs it.
 */
export async function createLogger({ level, format }: LoggerOptions): Promise<Logger> {
  const options = { level, redact: ['*.password', '*.token', 'token'] };
  if (format === 'json') return pino(options);
  const { default: pretty } = await import('pino-pretty');
  // A stream in this thread, not a pino transport: a transport loads pino-pretty by name in a worker
  // thread, which the esbuild bundle of `npm start` cannot serve.
  return pino(
    options,
    pretty({
      sync: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      singleLine: true,
      // A request's `error` is its envelope code, not an Error to print on lines of its own.
      errorLikeObjectKeys: ['err'],
    }),
  );
}
