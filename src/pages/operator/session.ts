/**
 * The operator app's session: signed in or not, and the one client it holds while signed in.
 */
import { signal } from '@preact/signals';
import type { CommandName, PayloadArgs } from '../../protocol/index.ts';
import { Client } from '../common/client.ts';
import { requests } from '../common/store.ts';
import { api } from './api.ts';

export type Auth = 'checking' | 'signed-out' | 'signed-in';
export const auth = signal<Auth>('checking');

async function loadRequests(): Promise<void> {
  const answer = await api.requests();
  if (answer.ok) requests.value = answer.requests;
}

/** The WebSocket is refused once the session is gone (signed out elsewhere, key regenerated). */
async function recheckSignIn(): Promise<void> {
  const answer = await api.authStatus();
  if (answer.ok && !answer.signedIn) signedOut();
}

export const client = new Client({
  role: 'operator',
  onHello: () => void loadRequests(),
  onClose: () => void recheckSignIn(),
});

function signedIn(): void {
  auth.value = 'signed-in';
  client.start();
}

function signedOut(): void {
  client.stop();
  auth.value = 'signed-out';
}

export async function checkSignIn(): Promise<void> {
  const answer = await api.authStatus();
  if (answer.ok && answer.signedIn) signedIn();
  else signedOut();
}

/** Signs in with the key; resolves with the server's message when it refuses. */
export async function signIn(key: string): Promise<string | null> {
  const answer = await api.signIn(key);
  if (!answer.ok) return answer.message;
  signedIn();
  return null;
}

export async function signOut(): Promise<string | null> {
  const answer = await api.signOut();
  if (!answer.ok) return answer.message;
  signedOut();
  return null;
}

/**
 * Runs a command over the WebSocket (the same dispatcher as a Stream Deck); its name, payload and
 * answer follow the command's contract (src/protocol/commands.ts).
 */
export const trigger = <N extends CommandName>(action: N, ...payload: PayloadArgs<N>) =>
  client.trigger(action, ...payload);
