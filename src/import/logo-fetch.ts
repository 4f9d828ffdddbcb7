/**
 * The team logo fetch: one http(s) address, loaded once into the media store in the background,
 * with the care of the importers' requests (one client, a deadline, a size limit, every failure in
 * words), from a device that is not this machine (src/import/address-guard.ts). Only an image is
 * kept, recognised by its first bytes (docs/application.md, "Team logos").
 */
import type { EventObject } from 'xstate';
import { fromCallback } from 'xstate';
import type { LogoFetchInput, MatchEvent } from '../../machines/match.machine.ts';
import { LOGO_REASON_MAX_LENGTH } from '../../machines/team-logo.ts';
import { hostOfUrl, remoteText } from '../net/network-errors.ts';
import { ServiceError } from '../protocol/errors.ts';
import type { ImageType } from '../protocol/media.ts';
import { IMAGE_TYPE_WORDS, imageTypeOf, MAX_IMAGE_BYTES } from '../protocol/media.ts';
import { createAddressGuard } from './address-guard.ts';
import { createImportBudget, createSourceClient } from './fetch-source.ts';

/** How long one logo may take, redirects included: a logo server that hangs is given up. */
export const LOGO_FETCH_TIMEOUT_MS = 10_000;

const ACCEPT = 'image/png,image/jpeg,image/webp,image/gif,image/svg+xml;q=0.9,image/*;q=0.5';

export interface LogoFetchOptions {
  /** Keeps an image in the media store; resolves to the address the pages load it from (`/media/<id>`). */
  store(bytes: Buffer, type: ImageType): Promise<string>;
  timeoutMs: number;
  /** Defaults to the importers' `hud-automation/<version> (+local CS2 broadcast automation)`. */
  userAgent?: string;
}

/** The address the pages load the logo at `logo` from, once stored; a ServiceError in words when it cannot be. */
export async function fetchLogo(
  logo: string,
  options: LogoFetchOptions,
  signal?: AbortSignal,
): Promise<string> {
  const budget = createImportBudget('the logo', options.timeoutMs, signal);
  // The address comes from a client (set_teams, a veto, an import's page): it may not make the
  // server reach this machine or link-local addresses, on the first request or after a redirect.
  const dispatcher = createAddressGuard();
  try {
    const client = createSourceClient({
      signal: budget.signal,
      dispatcher: await dispatcher,
      ...(options.userAgent === undefined ? {} : { userAgent: options.userAgent }),
    });
    const { body, type } = await client.bytes(
      {
        source: `the logo's server (${hostOfUrl(logo)})`,
        what: 'logo',
        url: logo,
        notFound: 'there is no image at that address',
      },
      ACCEPT,
      MAX_IMAGE_BYTES,
    );
    const image = imageTypeOf(body);
    if (!image) {
      const said = type ? `it says ${type.split(';')[0]}` : 'it names no type';
      throw new ServiceError(
        'upstream_error',
        body.length === 0
          ? 'the address answered with nothing'
          : `the address answered with something that is not a ${IMAGE_TYPE_WORDS} image (${said})`,
      );
    }
    return await options.store(body, image);
  } finally {
    budget.dispose();
    // Its sockets end with the fetch (a logo server's keep-alive is not held open).
    void dispatcher.then((agent) => agent.destroy()).catch(() => undefined);
  }
}

/**
 * The match machine's `logoFetch`: fetches one logo and reports `match.logo.stored` or
 * `match.logo.failed`. Stopped (the logo is no longer in use, the service closes), it aborts the
 * request and reports nothing.
 */
export function createLogoFetch(options: LogoFetchOptions) {
  return fromCallback<EventObject, LogoFetchInput>(({ input, sendBack }) => {
    const stop = new AbortController();
    const report = (event: MatchEvent) => {
      if (!stop.signal.aborted) sendBack(event);
    };
    fetchLogo(input.logo, options, stop.signal).then(
      (src) => report({ type: 'match.logo.stored', logo: input.logo, src }),
      (error: unknown) =>
        report({
          type: 'match.logo.failed',
          logo: input.logo,
          reason:
            error instanceof ServiceError
              ? remoteText(error.message, LOGO_REASON_MAX_LENGTH)
              : 'the logo could not be kept (an unexpected error)',
        }),
    );
    return () => stop.abort();
  });
}
