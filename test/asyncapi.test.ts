import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { asyncApiPath, renderAsyncApi } from '../scripts/asyncapi.ts';
import { COMMANDS } from '../src/core/commands/registry.ts';

describe('docs/asyncapi.json', () => {
  it('is generated from the current protocol schemas (run npm run asyncapi)', async () => {
    const committed = await readFile(asyncApiPath, 'utf8').catch(() => '');
    expect(committed === renderAsyncApi(), 'docs/asyncapi.json is stale: run npm run asyncapi').toBe(true);
  });

  it('describes every event and every command', () => {
    const document = JSON.parse(renderAsyncApi());
    const messages = Object.keys(document.channels.control.messages);
    for (const name of [
      'trigger',
      'auth',
      'hello',
      'result',
      'event:hud.state',
      'event:match',
      'event:replay.saved',
      'game',
    ]) {
      expect(messages).toContain(name);
    }
    // One schema per public command: a command added to the catalogue is described without an edit here.
    expect(Object.keys(document.components.schemas)).toEqual(
      COMMANDS.map((command) => `command.${command.id}`),
    );
  });
});
