/**
 * The operator app's sessions: one per signed-in browser, random and kept on the server (in the
 * data directory, owner-only), so each can be listed with its device and last use, ended alone
 * (Sign out, or from the list), and all ended at once when the sign-in key is regenerated. The
 * cookie holds `<id>.<secret>`; the file holds the id and a hash of the secret, never the secret.
 * docs/application.md "Signing in" says what the operator sees.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NoticeBus } from '../core/notices.ts';
import { writeFileAtomic } from '../persistence/atomic-file.ts';
import { OWNER_ONLY, SESSIONS_FILE } from '../persistence/data-dir.ts';
import { tokensEqual } from './access-token.ts';

/** A session no browser used for this long ends by itself. */
export const SESSION_IDLE_MS = 30 * 24 * 3600 * 1000;
/** Sessions kept at most; signing in beyond it ends the one used longest ago. */
export const MAX_SESSIONS = 50;
/** The last use is written to the file at most this often (a request is not a write). */
const LAST_USE_WRITE_MS = 60_000;

export interface SessionRecord {
  /** Public: how the list and "end this session" name it. */
  id: string;
  /** Of the browser that signed in: its User-Agent, shortened. */
  device: string;
  /** The address it signed in from. */
  address: string;
  createdAt: number;
  lastUsedAt: number;
}

interface Stored extends SessionRecord {
  /** SHA-256 of the cookie's secret, base64url. */
  hash: string;
}

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('base64url');
const deviceOf = (userAgent: string | undefined) => (userAgent ?? 'unknown browser').slice(0, 160);

export class Sessions {
  readonly #file: string;
  readonly #now: () => number;
  /** Hears each ended session (`session.ended`): its open pages must go. */
  readonly #notices: Pick<NoticeBus, 'emit'>;
  #sessions = new Map<string, Stored>();
  #lastUseTimer: NodeJS.Timeout | null = null;

  private constructor(file: string, notices: Pick<NoticeBus, 'emit'>, now: () => number) {
    this.#file = file;
    this.#notices = notices;
    this.#now = now;
  }

  /** The sessions of the data directory; a missing or unreadable file is no session (sign in again). */
  static async load(
    dataDir: string,
    notices: Pick<NoticeBus, 'emit'>,
    now: () => number = Date.now,
  ): Promise<Sessions> {
    const sessions = new Sessions(join(dataDir, SESSIONS_FILE), notices, now);
    try {
      const stored = JSON.parse(await readFile(sessions.#file, 'utf8')) as { sessions?: Stored[] };
      for (const entry of stored.sessions ?? []) {
        if (typeof entry?.id === 'string' && typeof entry.hash === 'string')
          sessions.#sessions.set(entry.id, entry);
      }
    } catch {
      // No file yet, or damaged: nobody is signed in, which is the safe side.
    }
    return sessions;
  }

  /** A new session for a browser that gave the key; the cookie value to set. */
  async create(userAgent: string | undefined, address: string): Promise<string> {
    this.#expire();
    while (this.#sessions.size >= MAX_SESSIONS) {
      const oldest = [...this.#sessions.values()].sort((a, b) => a.lastUsedAt - b.lastUsedAt)[0];
      if (oldest) this.#sessions.delete(oldest.id);
    }
    const id = randomBytes(9).toString('base64url');
    const secret = randomBytes(32).toString('base64url');
    const now = this.#now();
    this.#sessions.set(id, {
      id,
      hash: hashOf(secret),
      device: deviceOf(userAgent),
      address,
      createdAt: now,
      lastUsedAt: now,
    });
    await this.#save();
    return `${id}.${secret}`;
  }

  /** The session a cookie value names, when it is live; its last use is now. */
  verify(value: string | undefined): SessionRecord | null {
    if (!value) return null;
    const dot = value.indexOf('.');
    const session = dot > 0 ? this.#sessions.get(value.slice(0, dot)) : undefined;
    if (!session || !tokensEqual(session.hash, hashOf(value.slice(dot + 1)))) return null;
    const now = this.#now();
    if (now - session.lastUsedAt > SESSION_IDLE_MS) {
      this.#sessions.delete(session.id);
      this.#saveSoon();
      return null;
    }
    session.lastUsedAt = now;
    this.#saveSoon();
    return this.#public(session);
  }

  list(): SessionRecord[] {
    this.#expire();
    return [...this.#sessions.values()]
      .sort((a, b) => b.lastUsedAt - a.lastUsedAt)
      .map((s) => this.#public(s));
  }

  /** Ends one session; false when there is no such session. */
  async end(id: string): Promise<boolean> {
    if (!this.#sessions.delete(id)) return false;
    this.#notices.emit('session.ended', id);
    await this.#save();
    return true;
  }

  /** Ends every session (the sign-in key was regenerated). */
  async endAll(): Promise<void> {
    const ended = [...this.#sessions.keys()];
    this.#sessions.clear();
    for (const id of ended) this.#notices.emit('session.ended', id);
    await this.#save();
  }

  /** Writes the last uses still pending. */
  async close(): Promise<void> {
    if (this.#lastUseTimer === null) return;
    clearTimeout(this.#lastUseTimer);
    this.#lastUseTimer = null;
    await this.#save().catch(() => undefined);
  }

  #public({ id, device, address, createdAt, lastUsedAt }: Stored): SessionRecord {
    return { id, device, address, createdAt, lastUsedAt };
  }

  #expire(): void {
    const now = this.#now();
    for (const [id, session] of this.#sessions) {
      if (now - session.lastUsedAt > SESSION_IDLE_MS) this.#sessions.delete(id);
    }
  }

  #saveSoon(): void {
    if (this.#lastUseTimer !== null) return;
    this.#lastUseTimer = setTimeout(() => {
      this.#lastUseTimer = null;
      // A last use that cannot be written costs nothing but that last use.
      this.#save().catch(() => undefined);
    }, LAST_USE_WRITE_MS);
    this.#lastUseTimer.unref();
  }

  async #save(): Promise<void> {
    const sessions = [...this.#sessions.values()];
    await writeFileAtomic(this.#file, `${JSON.stringify({ sessions }, null, 2)}\n`, { mode: OWNER_ONLY });
  }
}
