/**
 * The installable package as `npm run package` writes it (npm test packages first): what
 * Companion's "Import module package" reads, and the bundled module running against the server.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompanionHost } from './helpers/companion-host.ts';
import { type HudServer, startHudServer } from './helpers/hud-server.ts';

const MODULE_DIR = fileURLToPath(new URL('..', import.meta.url));
const modulePackage = JSON.parse(readFileSync(`${MODULE_DIR}package.json`, 'utf8'));
const TGZ = `${MODULE_DIR}hud-automation-${modulePackage.version}.tgz`;
const MANIFEST = `${MODULE_DIR}pkg/companion/manifest.json`;
const BASE_VERSION = JSON.parse(
  readFileSync(`${MODULE_DIR}node_modules/@companion-module/base/package.json`, 'utf8'),
).version;

describe('the package', () => {
  it('is written by npm run package', () => {
    expect(existsSync(TGZ), `${TGZ} is missing: run npm run package`).toBe(true);
    expect(existsSync(MANIFEST), `${MANIFEST} is missing: run npm run package`).toBe(true);
  });

  it('names this project, its licence and repository, and the API Companion 4.0 loads', () => {
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
    expect(manifest).toMatchObject({
      id: 'hud-automation',
      name: 'hud-automation',
      license: 'MIT',
      version: modulePackage.version,
      repository: modulePackage.repository.url,
      runtime: { type: 'node22', api: 'nodejs-ipc', apiVersion: BASE_VERSION, entrypoint: '../main.js' },
    });
    // Companion 4.0 loads module API 1.0 to 1.12.
    expect(BASE_VERSION).toMatch(/^1\.12\./);
  });
});

describe('the bundled module', () => {
  let server: HudServer;
  let host: CompanionHost;
  beforeAll(async () => {
    server = await startHudServer();
    host = await CompanionHost.start({
      entry: 'package',
      config: { host: '127.0.0.1', port: server.port, token: '' },
    });
  });
  afterAll(async () => {
    await host?.stop();
    await server?.close();
  });

  it('connects, runs a command and lights its button', async () => {
    await host.waitForStatus('ok');
    const scoreboard = host.addFeedback('panel_visible', { panel: 'scoreboard' });
    await host.waitForFeedback(scoreboard, false);
    await host.runAction('toggle_scoreboard', {});
    await host.waitForFeedback(scoreboard, true);
    expect(host.actions.size).toBeGreaterThan(30);
    expect(Object.keys(host.presets).length).toBeGreaterThan(30);
  });
});
