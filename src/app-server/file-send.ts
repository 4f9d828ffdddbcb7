/**
 * Files from disk (the built pages, the stored images, OBS's replay clips), answered by @fastify/send:
 * conditional requests, ranges, the content type. It loads with the first file asked for, not at
 * start: it and @fastify/static around it (with glob and their MIME and HTTP error tables) were a
 * twelfth of the start-up, and nothing asks for a file before the servers listen.
 */
import type { SendOptions, SendResult } from '@fastify/send';

let loading: Promise<typeof import('@fastify/send').default> | null = null;

function loadSend() {
  loading ??= import('@fastify/send').then(({ default: send }) => {
    // What @fastify/static set: a file of an unknown kind is bytes, not text.
    (send.mime as { default_type?: string }).default_type = 'application/octet-stream';
    return send;
  });
  return loading;
}

/** `send(request, path, options)` of @fastify/send, once it is loaded. */
export async function sendFromDisk(
  request: Parameters<typeof import('@fastify/send').default>[0],
  path: string,
  options: SendOptions,
): Promise<SendResult> {
  const send = await loadSend();
  return send(request, path, options);
}
