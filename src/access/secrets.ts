import { join } from 'node:path';
import type { Emitter } from 'mitt';
import mittModule from 'mitt';
import { SIGN_IN_KEY_FILE, TOKEN_FILE } from '../persistence/data-dir.ts';
import { reasonOf } from '../persistence/errno-words.ts';
import { ServiceError } from '../protocol/errors.ts';
import { loadOrCreateToken, regenerateToken } from './access-token.ts';

// mitt's CommonJS-style default export types as "not callable" under module nodenext.
const mitt = mittModule as unknown as typeof mittModule.default;

export type SecretEvents = {
  /** The access token was regenerated: remote clients must come back with the new one. */
  token: undefined;
  /** The sign-in key was regenerated: every operator app browser is signed out. */
  signInKey: undefined;
};

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
 * The two secrets of the data directory: the access token local-network devices send, and the key
 * of the operator app's sign-in address. Each is regenerated in its file first, then used.
 */
export class Secrets {
  readonly events: Emitter<SecretEvents> = mitt<SecretEvents>();

  private constructor(
    private readonly dataDir: string,
    private accessToken: string,
    private key: string,
  ) {}

  static async load(dataDir: string): Promise<Secrets> {
    const token = await loadOrCreateToken(join(dataDir, TOKEN_FILE));
    const key = await loadOrCreateToken(join(dataDir, SIGN_IN_KEY_FILE));
    return new Secrets(dataDir, token, key);
  }

  /** The access token local-network devices must send. */
  token(): string {
    return this.accessToken;
  }

  /** The key of the operator app's sign-in address. */
  signInKey(): string {
    return this.key;
  }

  async regenerateToken(): Promise<string> {
    this.accessToken = await replaceSecret(join(this.dataDir, TOKEN_FILE), 'access token');
    this.events.emit('token', undefined);
    return this.accessToken;
  }

  async regenerateSignInKey(): Promise<string> {
    this.key = await replaceSecret(join(this.dataDir, SIGN_IN_KEY_FILE), 'sign-in key');
    this.events.emit('signInKey', undefined);
    return this.key;
  }

  close(): void {
    this.events.all.clear();
  }
}
