import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  json: any;
}

/** Parses one HTTP/1.1 answer (headers and a Content-Length body) from the bytes a server sent. */
export function parseAnswer(bytes: string): RawAnswer {
  const end = bytes.indexOf('\r\n\r\n');
  if (end === -1) throw new Error(`no complete HTTP answer in ${JSON.stringify(bytes.slice(0, 200))}`);
  const [statusLine = '', ...lines] = bytes.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? bytes.length - end - 4);
  const body = bytes.slice(end + 4, end + 4 + length);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body, json };
}

/**
 * Sends `bytes` over a fresh TCP connection and resolves with the answer once the server closes the
 * connection (requests should say `Connection: close`, or be ones the server closes after).
 */
export function rawRequest(port: number, bytes: string, host = '127.0.0.1'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server may close while we still write (a refused body): what it answered still counts.
    socket.on('error', () => {});
    socket.on('close', () => {
      try {
        resolve(parseAnswer(Buffer.concat(chunks).toString('latin1')));
      } catch (error) {
        reject(error);
      }
    });
  });
}
