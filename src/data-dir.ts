import envPaths from 'env-paths';

/** The per-user data directory of the platform (XDG on Linux, Application Support on macOS, AppData on Windows). */
export const defaultDataDir = (): string => envPaths('hud-automation', { suffix: '' }).data;
