import { join } from 'node:path';
import type { NoticeBus } from '../core/notices.ts';
import { SIGN_IN_KEY_FILE, TOKEN_FILE, VIEW_KEY_FILE } from '../persistence/data-dir.ts';
import { reasonOf } from '../persistence/errno-words.ts';
import { ServiceError } from '../protocol/errors.ts';
import { loadOrCreateToken, regenerateToken } from './access-token.ts';

/** A new secret in `file`; a write that fails is storage_failed and the current secret stays valid. */
async function replaceSecret(file: string, what: string): Promise<string> {
  try {
    return await regenerateToken(file);
  } catch (error) {
    if (!(error as NodeJS.ErrnoException).code) throw error;
    throw new ServiceError(
      'storage_failed',
      `the ${what} was not replaced: ${reasonOf(error, file)}; the current ${what} stays valid`,
    );
  }
}

/**
 * The secrets of the data directory: the access token local-network devices send, the key of the
 * operator app's sign-in address, and the view key of the pages that only show (read-only: see
 * docs/access.md, "Pages that only show"). Each is regenerated in its file first, then used.
 */
export class Secrets {
  private constructor(
    /** Hears each regenerated secret (`secret.regenerated`): who carried the old one must go. */
    private readonly notices: Pick<NoticeBus, 'emit'>,
    private readonly dataDir: string,
    private accessToken: string,
    private key: string,
    private view: string,
  ) {}

  static async load(dataDir: string, notices: Pick<NoticeBus, 'emit'>): Promise<Secrets> {
    // Read (or made, with a synced write each) side by side: they are separate files.
    const [token, key, view] = await Promise.all([
      loadOrCreateToken(join(dataDir, TOKEN_FILE)),
      loadOrCreateToken(join(dataDir, SIGN_IN_KEY_FILE)),
      loadOrCreateToken(join(dataDir, VIEW_KEY_FILE)),
    ]);
    return new Secrets(notices, dataDir, token, key, view);
  }

  /** The access token local-network devices must send. */
  token(): string {
    return this.accessToken;
  }

  /** The key of the operator app's sign-in address. */
  signInKey(): string {
    return this.key;
  }

  /** The read-only key of the pages that only show: it reads the state and runs no command. */
  viewKey(): string {
    return this.view;
  }

  async regenerateToken(): Promise<string> {
    this.accessToken = await replaceSecret(join(this.dataDir, TOKEN_FILE), 'access token');
    this.notices.emit('secret.regenerated', 'token');
    return this.accessToken;
  }

  async regenerateSignInKey(): Promise<string> {
    this.key = await replaceSecret(join(this.dataDir, SIGN_IN_KEY_FILE), 'sign-in key');
    this.notices.emit('secret.regenerated', 'signInKey');
    return this.key;
  }

  async regenerateViewKey(): Promise<string> {
    this.view = await replaceSecret(join(this.dataDir, VIEW_KEY_FILE), 'view key');
    this.notices.emit('secret.regenerated', 'viewKey');
    return this.view;
  }
}
