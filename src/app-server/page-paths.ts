import { SCENES } from '../../machines/vocabulary.ts';

/** The scene addresses: the scene window, and one fixed source per scene (docs/themes.md). */
export const SCENE_PAGES: readonly string[] = ['window', ...SCENES];

/**
 * The pages OBS loads as browser sources. From another machine of the local network they need
 * the access token in their address (`?token=`), as their WebSocket does.
 */
export function isOverlayPagePath(path: string): boolean {
  if (path === '/hud' || path === '/hud/') return true;
  if (!path.startsWith('/scenes/')) return false;
  return SCENE_PAGES.includes(path.slice('/scenes/'.length).replace(/\/$/, ''));
}

/** Where the overlay plays the replay clips OBS saved (`/replay?path=`): the overlay's credential applies. */
export const REPLAY_PATH = '/replay';

/** What a local-network browser may load only with a credential: the overlay pages and their replays. */
export const needsPageCredential = (path: string) => isOverlayPagePath(path) || path === REPLAY_PATH;
