/**
 * The operator app's own HTTP calls (sign-in and the panel API, cookie + same origin). Commands do
 * not go here: they are triggers over the WebSocket (client.ts).
 */
import type {
  ActionDescriptor,
  ErrorEnvelope,
  PublicSettings,
  RequestRecord,
  SettingsChange,
} from '../../protocol/index.ts';

export type { SettingsChange };

/** What every failure says: the server's envelope. */
export type Failure = ErrorEnvelope;

export type Answer<T> = ({ ok: true } & T) | Failure;

/** A JSON request; network failures and non-JSON answers become a Failure in words. */
export async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer<T>> {
  try {
    const response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => null)) as Answer<T> | null;
    if (answer && typeof answer === 'object' && 'ok' in answer) return answer;
    return {
      ok: false,
      error: 'internal_error',
      message: `The server answered ${response.status} without a message`,
    };
  } catch {
    return {
      ok: false,
      error: 'unavailable',
      message: 'The server cannot be reached: is hud-automation running?',
    };
  }
}

/** Reads a file the operator chose as base64, for POST /api/panel/media. */
export function readBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export const api = {
  authStatus: () => request<{ signedIn: boolean }>('GET', '/auth/status'),
  signIn: (key: string) => request<object>('POST', '/auth/sign-in', { key }),
  signOut: () => request<object>('POST', '/auth/sign-out'),
  requests: () => request<{ requests: RequestRecord[] }>('GET', '/api/panel/requests'),
  token: () => request<{ token: string }>('GET', '/api/panel/token'),
  regenerateToken: () => request<{ token: string }>('POST', '/api/panel/token/regenerate'),
  viewKey: () => request<{ viewKey: string }>('GET', '/api/panel/view-key'),
  regenerateViewKey: () => request<{ viewKey: string }>('POST', '/api/panel/view-key/regenerate'),
  settings: (change: SettingsChange) =>
    request<{ settings: PublicSettings }>('POST', '/api/panel/settings', change),
  uploadImage: async (file: Blob) =>
    request<{ media: { id: string; url: string } }>('POST', '/api/panel/media', {
      data: await readBase64(file),
    }),
  actions: () => request<{ actions: ActionDescriptor[] }>('GET', '/api/actions'),
};
