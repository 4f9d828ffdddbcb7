/**
 * Settings travel with a revision like every other state: a branding change goes out with a new
 * revision, so a client that compares revisions (a pong, a resync after a gap) cannot miss it.
 */
import { describe, expect, it } from 'vitest';
import { build, PROGRAM } from '../helpers/build.ts';
import { FaultyFiles } from '../helpers/faulty-files.ts';
import { connect } from '../helpers/ws-client.ts';

const SHELL = { ...PROGRAM, role: 'shell' as const };

describe('settings in the revision hub (over the real WebSocket)', () => {
  it('a branding change raises the revision; a client that resyncs from its revision gets the new branding', async () => {
    const server = await build();
    const client = await connect(server.wsUrl);
    const hello = await client.next();
    const before = hello.snapshot.revision as number;
    expect(hello.snapshot.branding.talents).toEqual([]);

    const talents = [{ name: 'Anders', role: 'caster' }];
    await server.service.panel('settings', { branding: { talents } }, SHELL);
    const event = await client.waitFor((message) => message.type === 'event' && message.event === 'branding');
    expect(event.revision).toBe(before + 1);
    expect(event.data.talents).toEqual(talents);

    // A client that was away compares its revision with the server's and resyncs: the snapshot holds the change.
    client.send({ type: 'ping', id: 'p' });
    const pong = await client.waitFor((message) => message.type === 'pong');
    expect(pong.revision).toBeGreaterThan(before);
    client.send({ type: 'snapshot', id: 's' });
    const resync = await client.waitFor((message) => message.type === 'snapshot');
    expect(resync.snapshot.revision).toBe(pong.revision);
    expect(resync.snapshot.branding.talents).toEqual(talents);
    client.close();
  });

  it('a settings change that leaves the branding as it was keeps the revision', async () => {
    const server = await build();
    const revision = server.service.hub.revision;
    await server.service.panel('settings', { game: { slotNumbering: 'csgo' } }, SHELL);
    await server.service.panel('settings', { branding: {} }, SHELL);
    expect(server.service.hub.revision).toBe(revision);
  });

  it('a failed write rolls the branding back with one more revision, which a connected client sees', async () => {
    const faults = new FaultyFiles();
    const server = await build({ storeFiles: faults.wrap });
    const client = await connect(server.wsUrl);
    const before = (await client.next()).snapshot.revision as number;
    faults.failWith = 'EIO';
    const talents = [{ name: 'Anders', role: 'caster' }];
    await expect(server.service.panel('settings', { branding: { talents } }, SHELL)).rejects.toThrow();
    // The change went out, then the rollback to what is saved: each with a revision of its own (the
    // storage status takes one between them).
    await client.waitFor((message) => message.event === 'branding' && message.data.talents.length === 0);
    const branding = client.received.filter((message) => message.event === 'branding');
    expect(branding.map((message) => message.data.talents)).toEqual([talents, []]);
    const [changed, rolledBack] = branding.map((message) => message.revision as number);
    expect(changed).toBe(before + 1);
    expect(rolledBack).toBeGreaterThan(changed as number);
    // The disk works again: the store recovers by itself, and the service closes cleanly.
    faults.failWith = null;
    await client.waitFor((message) => message.event === 'hud.state' && message.data.storage?.ok === true);
    client.close();
  });
});
