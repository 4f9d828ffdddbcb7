import type { Dispatcher, Response } from 'undici';
import { hostOfUrl, networkCause, remoteText } from '../net/network-errors.ts';
import { ServiceError } from '../protocol/errors.ts';
import { VERSION } from '../version.ts';

/**
 * The one HTTP client of the importers. Every failure leaves it as a ServiceError that says what
 * happened in words an operator can act on (source, what was asked, why it failed); raw fetch
 * exceptions never escape.
 */

/** One request to a source: `source` and `what` only name it in messages ("FACEIT", "veto history"). */
export interface SourceRequest {
  source: string;
  what: string;
  url: string;
  /** What a 404 means here, in words ("the match does not exist there or is not public"). */
  notFound: string;
  headers?: Record<string, string>;
}

export interface SourceClient {
  /** The parsed JSON body of a 2xx answer. */
  json(request: SourceRequest): Promise<unknown>;
  /** The HTML of a 2xx answer that is not a bot check. */
  html(request: SourceRequest): Promise<string>;
  /** The body of a 2xx answer as it came, at most `maxBytes`, and its content type as the source named it. */
  bytes(request: SourceRequest, accept: string, maxBytes: number): Promise<{ body: Buffer; type: string }>;
}

/** The deadline of one task (an import, a logo): one signal for every request of it. */
export interface ImportBudget {
  signal: AbortSignal;
  dispose(): void;
}

/** Larger answers are not a match page or a match object; stop reading rather than buffer them. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** Redirects followed for one request; a site needs one or two (http to https, a CDN's edge). */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * A signal that aborts when the budget runs out or the caller gives up. The abort reason is
 * already the ServiceError to report, so the client can tell a time-out from a cancellation.
 * `task` names it in those messages: "the import", "the logo".
 */
export function createImportBudget(
  task: string,
  timeoutMs: number,
  callerSignal?: AbortSignal,
): ImportBudget {
  const controller = new AbortController();
  const seconds = Number((timeoutMs / 1000).toFixed(1));
  const timer = setTimeout(() => {
    controller.abort(new ServiceError('upstream_timeout', `${task} did not finish within ${seconds} s`));
  }, timeoutMs);
  const onCallerAbort = () => controller.abort(new ServiceError('upstream_error', `${task} was cancelled`));
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    dispose() {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}

/** `hud-automation/<version> (+local CS2 broadcast automation)`. */
export function defaultUserAgent(): string {
  return `hud-automation/${VERSION} (+local CS2 broadcast automation)`;
}

/**
 * `dispatcher` opens the connections: without one, any address (the importers' sources, set by the
 * operator); the logo fetch gives the address guard (src/import/address-guard.ts), whose check runs
 * again for every redirect, since each hop is a connection of its own.
 */
export function createSourceClient(options: {
  signal: AbortSignal;
  userAgent?: string;
  dispatcher?: Dispatcher;
}): SourceClient {
  const { signal, dispatcher } = options;
  const userAgent = options.userAgent ?? defaultUserAgent();

  /**
   * The answer at the end of the redirects. `hop.url` is the address asked last, so that a failure
   * after a redirect names where it went.
   */
  async function follow(request: SourceRequest, accept: string, hop: { url: string }): Promise<Response> {
    const own = { 'User-Agent': userAgent, Accept: accept };
    let headers: Record<string, string> = { ...own, ...request.headers };
    // undici's own fetch, the one that takes its Agent (the address guard): loaded with the first
    // request, like cheerio, so a start never loads it (docs/performance.md, "Start-up").
    const { fetch } = await import('undici');
    for (let redirects = 0; ; redirects += 1) {
      const response = await fetch(hop.url, {
        headers,
        redirect: 'manual',
        signal,
        ...(dispatcher === undefined ? {} : { dispatcher }),
      });
      const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
      if (location === null) return response;
      await response.body?.cancel().catch(() => undefined);
      if (redirects === MAX_REDIRECTS) {
        throw new ServiceError(
          'upstream_error',
          `${request.source} redirected the ${request.what} request more than ${MAX_REDIRECTS} times`,
        );
      }
      const next = redirectTarget(location, hop.url);
      if (next === null) {
        throw new ServiceError(
          'upstream_error',
          `${request.source} redirected the ${request.what} request to something that is not an http(s) address (${remoteText(location)})`,
        );
      }
      // What the request carries for its own site (an API key) never goes to another one.
      if (next.origin !== new URL(hop.url).origin) headers = own;
      hop.url = next.href;
    }
  }

  async function load(
    request: SourceRequest,
    accept: string,
    maxBytes = MAX_BODY_BYTES,
  ): Promise<{ response: Response; body: Buffer }> {
    if (signal.aborted) throw abortError(signal, request);
    const hop = { url: request.url };
    let response: Response;
    let body: Buffer;
    try {
      response = await follow(request, accept, hop);
      body = await readBody(response, request, maxBytes);
    } catch (error) {
      // fetch rejects with the abort reason itself, so the budget is checked before anything else.
      if (signal.aborted) throw abortError(signal, request);
      if (error instanceof ServiceError) throw error;
      throw networkError(error, request, hop.url);
    }
    const challenge = await botCheck(response, body);
    if (challenge !== null) {
      throw new ServiceError(
        'upstream_error',
        `${request.source} answered the ${request.what} request with ${challenge} instead of data; ` +
          'the site is blocking automated requests from this machine right now, try again later or enter the veto by hand',
      );
    }
    if (!response.ok) throw statusError(response, request);
    return { response, body };
  }

  return {
    async json(request) {
      const { response, body } = await load(request, 'application/json');
      try {
        return JSON.parse(body.toString('utf8')) as unknown;
      } catch {
        const type = remoteText(response.headers.get('content-type') ?? 'no content type');
        throw new ServiceError(
          'upstream_error',
          `${request.source} answered the ${request.what} request with something that is not JSON (${type})`,
        );
      }
    },
    async html(request) {
      const { body } = await load(request, 'text/html,application/xhtml+xml');
      return body.toString('utf8');
    },
    async bytes(request, accept, maxBytes) {
      const { response, body } = await load(request, accept, maxBytes);
      return { body, type: remoteText(response.headers.get('content-type') ?? '') };
    },
  };
}

async function readBody(response: Response, request: SourceRequest, maxBytes: number): Promise<Buffer> {
  if (response.body === null) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new ServiceError(
        'upstream_error',
        `${request.source} answered the ${request.what} request with more than ${sizeInWords(maxBytes)}`,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** 8 MB, 2 MiB: a limit as the messages write it. */
const sizeInWords = (bytes: number) =>
  bytes % (1024 * 1024) === 0 && bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MB` : `${bytes} bytes`;

function abortError(signal: AbortSignal, request: SourceRequest): ServiceError {
  const reason: unknown = signal.reason;
  if (reason instanceof ServiceError) {
    const detail =
      reason.code === 'upstream_timeout'
        ? `${request.source} did not answer the ${request.what} request in time`
        : '';
    return new ServiceError(reason.code, detail ? `${reason.message}: ${detail}` : reason.message);
  }
  return new ServiceError('upstream_error', `the ${request.what} request to ${request.source} was aborted`);
}

/** The absolute http(s) address a redirect's Location names, resolved against the address asked; null when it names none. */
function redirectTarget(location: string, from: string): URL | null {
  try {
    const next = new URL(location, from);
    return next.protocol === 'http:' || next.protocol === 'https:' ? next : null;
  } catch {
    return null;
  }
}

function networkError(error: unknown, request: SourceRequest, url: string): ServiceError {
  // The host a redirect chose is the other server's text: quoted within its bound.
  const where =
    url === request.url
      ? hostOfUrl(url)
      : `${hostOfUrl(request.url)}, redirected to ${remoteText(hostOfUrl(url))}`;
  return new ServiceError(
    'upstream_error',
    `could not reach ${request.source} (${where}) for the ${request.what}: ${networkCause(error)}`,
  );
}

function statusError(response: Response, request: SourceRequest): ServiceError {
  const text = remoteText(response.statusText);
  const status = `${response.status}${text ? ` ${text}` : ''}`;
  let hint = '';
  if (response.status === 404) hint = `: ${request.notFound}`;
  else if (response.status === 401 || response.status === 403)
    hint = ': access was refused (check the API key)';
  else if (response.status === 429) hint = ': too many requests from this machine, try again in a minute';
  else if (response.status >= 500) hint = ': the site has a problem, try again later';
  return new ServiceError(
    'upstream_error',
    `${request.source} answered ${status} to the ${request.what} request${hint}`,
  );
}

/**
 * A description of a bot check or block page, or null. Cloudflare marks challenges with the
 * `cf-mitigated` header; block and interstitial pages are recognised by their title and heading.
 * The HTML parser loads with the first page to look at: the logo fetch is part of every start and
 * mostly sees images (the parser and its HTTP client were half the start-up's code).
 */
async function botCheck(response: Response, bytes: Buffer): Promise<string | null> {
  const mitigated = response.headers.get('cf-mitigated');
  if (mitigated) return `a Cloudflare bot check (cf-mitigated: ${remoteText(mitigated)})`;
  const type = response.headers.get('content-type') ?? '';
  // An image is never a block page: only what says it is HTML, or looks like it, is parsed.
  if (type.startsWith('image/')) return null;
  const body = bytes.toString('utf8');
  if (!type.includes('html') && !body.trimStart().startsWith('<')) return null;
  const { load } = await import('cheerio');
  const $ = load(body);
  const title = $('title').first().text().trim();
  const headings = $('h1, h2')
    .map((_, element) => $(element).text().trim())
    .get()
    .join(' ');
  if (/just a moment/i.test(title)) return 'a Cloudflare "Just a moment..." challenge page';
  if (/attention required/i.test(title) || /sorry, you have been blocked/i.test(`${title} ${headings}`)) {
    return 'a Cloudflare "Sorry, you have been blocked" page';
  }
  if (/access denied/i.test(title)) return 'an "Access denied" page';
  return null;
}
