import { hostOfUrl, networkCause } from '../net/network-errors.ts';
import { ServiceError } from '../protocol/errors.ts';
import { VERSION } from '../version.ts';

/**
 * One GET of a stats platform's JSON, with the care the importers take (src/import/fetch-source.ts):
 * bounded in size and in time, every failure a ServiceError in words an operator can act on. Unlike
 * the importers' client it hands back an error status with its body, because for a player lookup
 * the status is the answer (404: no account there; 401: the key is refused).
 */

/** As the importers name themselves to a site (src/import/ is a part of the same row: not imported). */
const USER_AGENT = `hud-automation/${VERSION} (+local CS2 broadcast automation)`;

/** A player's details and lifetime stats are a few kilobytes; more is not an answer of the API. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** What the request is, for messages: "FACEIT" and "player lookup". */
export interface PlatformRequest {
  source: string;
  what: string;
  url: string;
  headers: Record<string, string>;
}

export interface PlatformAnswer {
  status: number;
  statusText: string;
  /** The parsed JSON of the answer; undefined when it was not JSON (error pages often are not). */
  body: unknown;
}

/** One deadline for every request of one lookup: its signal aborts with the time-out's ServiceError. */
export interface LookupBudget {
  signal: AbortSignal;
  dispose(): void;
}

export function lookupBudget(source: string, timeoutMs: number): LookupBudget {
  const controller = new AbortController();
  const seconds = Number((timeoutMs / 1000).toFixed(1));
  const timer = setTimeout(() => {
    controller.abort(
      new ServiceError('upstream_timeout', `${source} did not answer the player lookup within ${seconds} s`),
    );
  }, timeoutMs);
  return { signal: controller.signal, dispose: () => clearTimeout(timer) };
}

export async function getJson(request: PlatformRequest, signal: AbortSignal): Promise<PlatformAnswer> {
  if (signal.aborted) throw abortError(signal, request);
  try {
    const response = await fetch(request.url, {
      headers: { 'User-Agent': USER_AGENT, Accept: 'application/json', ...request.headers },
      redirect: 'follow',
      signal,
    });
    const text = await readBounded(response, request);
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      if (response.ok) {
        const type = response.headers.get('content-type') ?? 'no content type';
        throw new ServiceError(
          'upstream_error',
          `${request.source} answered the ${request.what} with something that is not JSON (${type})`,
        );
      }
    }
    return { status: response.status, statusText: response.statusText, body };
  } catch (error) {
    // fetch rejects with the abort reason itself: the deadline is checked before anything else.
    if (signal.aborted) throw abortError(signal, request);
    if (error instanceof ServiceError) throw error;
    throw new ServiceError(
      'upstream_error',
      `could not reach ${request.source} (${hostOfUrl(request.url)}) for the ${request.what}: ${networkCause(error)}`,
    );
  }
}

async function readBounded(response: Response, request: PlatformRequest): Promise<string> {
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await response.body.cancel().catch(() => undefined);
      throw new ServiceError(
        'upstream_error',
        `${request.source} answered the ${request.what} with more than ${MAX_ANSWER_BYTES / 1024} KiB`,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function abortError(signal: AbortSignal, request: PlatformRequest): ServiceError {
  const reason: unknown = signal.reason;
  if (reason instanceof ServiceError) return reason;
  return new ServiceError('upstream_error', `the ${request.what} at ${request.source} was cancelled`);
}
