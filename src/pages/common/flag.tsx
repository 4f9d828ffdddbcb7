/**
 * A country's flag from flag-icons (MIT), bundled by Vite: every flag is a file of the build, loaded
 * from the application server like the rest of the page, never fetched from elsewhere. Only the one
 * shown is loaded. A code without a flag shows nothing.
 */
import { SafeImage } from './safe-image.tsx';

// Each flag is its own file (vite.config.ts does not inline them): the map is 271 short addresses.
const FLAGS = import.meta.glob<string>('../../../node_modules/flag-icons/flags/4x3/*.svg', {
  query: '?url',
  import: 'default',
  eager: true,
});
const BY_CODE = new Map(
  Object.entries(FLAGS).map(([path, url]) => [(/([a-z-]+)\.svg$/.exec(path)?.[1] ?? '').toUpperCase(), url]),
);

/** The flag's address for an ISO 3166-1 alpha-2 code, or null. */
export const flagUrl = (code: string | null | undefined): string | null =>
  code ? (BY_CODE.get(code.toUpperCase()) ?? null) : null;

export function Flag({
  code,
  class: className = 'flag',
}: {
  code: string | null | undefined;
  class?: string;
}) {
  const url = flagUrl(code);
  if (!url || !code) return null;
  return <SafeImage src={url} alt={code} class={className} data-flag={code.toUpperCase()} />;
}
