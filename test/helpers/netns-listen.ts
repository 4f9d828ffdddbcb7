/**
 * A listening socket inside a test network's namespace, served from this process: a server of the
 * test (a logo host) that the service reaches as a device of the local network, at the namespace's
 * address, while its handlers, answers and records stay in the test.
 */
import { spawn } from 'node:child_process';
import type { Server } from 'node:net';
import { fileURLToPath } from 'node:url';

const LISTENER = fileURLToPath(new URL('./netns-listener.mjs', import.meta.url));

/**
 * A net.Server listening on `address` (port chosen by the kernel) inside `namespace`, and its port.
 * Pass it to an http server's `listen(server)`; closing that server closes the socket.
 */
export function listenInNamespace(
  namespace: string,
  address: string,
): Promise<{ handle: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('ip', ['netns', 'exec', namespace, process.execPath, LISTENER, address], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.once('message', (message: { port?: number; error?: string }, handle) => {
      if (message.port !== undefined && handle !== undefined) {
        resolve({ handle: handle as Server, port: message.port });
      } else {
        reject(new Error(`cannot listen on ${address} in ${namespace}: ${message.error ?? 'no socket'}`));
      }
    });
    child.once('error', reject);
    child.once('close', (code) =>
      reject(new Error(`the listener in ${namespace} exited (${code}) without a socket: ${stderr.trim()}`)),
    );
  });
}
