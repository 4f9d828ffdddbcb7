import { defineConfig } from 'vitest/config';

/**
 * The edge tier: files that need Chromium, OBS Studio, network namespaces (root), a server in a
 * child process (the CLI, a kill -9, a copy of the tree) or a real small disk. `npm test` runs them
 * with the rest; `npm run test:fast` leaves them out (docs/testing.md). A test of its own that needs
 * one of these in a file of the fast tier carries `{ tags: ['edge'] }`.
 */
const EDGE_FILES = [
  // Chromium.
  'test/browser/**',
  'test/pages/!(live-signals|loadout).test.ts',
  'test/app-server/operator-from-network.test.ts',
  'test/app-server/pages-from-network.test.ts',
  // OBS Studio under Xvfb.
  'test/obs/obs-socket.test.ts',
  'test/obs/replay-served.test.ts',
  'test/obs/save-replay-api.test.ts',
  // Network namespaces: a second host on a local network, the outside world.
  'test/access/host-budgets.test.ts',
  'test/access/hostile-peers.test.ts',
  'test/access/netns.test.ts',
  'test/access/remote-access.test.ts',
  'test/access/view-key-writes.test.ts',
  'test/app-server/team-logos.test.ts',
  'test/game/frame-flood.test.ts',
  'test/game/game-data-network.test.ts',
  'test/game/hlae-network.test.ts',
  // A server or the CLI in a child process: the built bundle, kill -9 loops, restarts, a tmpfs.
  'test/build.test.ts',
  'test/cli.test.ts',
  'test/inspector.test.ts',
  'test/core/roster.test.ts',
  'test/game/adr.test.ts',
  'test/game/gsi-config.test.ts',
  'test/game/recorder-cli.test.ts',
  'test/persistence/kill-loop.test.ts',
  'test/persistence/teams-kill.test.ts',
  'test/app-server/teams-images.test.ts',
  'test/persistence/persistence.test.ts',
  'test/persistence/revision-lease.test.ts',
  'test/persistence/start-up.test.ts',
  'test/persistence/undo-history-kill.test.ts',
  'test/persistence/storage-failure.test.ts',
  'test/stats/player-stats-provider.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['./test/global-setup.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    // Real servers, real OBS and network namespaces: keep files in separate processes, two at a time
    // on the 2-core machines this runs on.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    tags: [
      {
        name: 'edge',
        description: 'needs Chromium, OBS, network namespaces or a child process: npm test, not test:fast',
      },
    ],
    // One pool for both: `npm test` runs every file of both, two at a time, as before.
    projects: [
      { extends: true, test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: EDGE_FILES } },
      { extends: true, test: { name: 'edge', include: EDGE_FILES } },
    ],
  },
});
