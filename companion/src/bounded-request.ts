/**
 * One HTTP request whose answer is read with a budget: at most `maxBytes` of body and `deadlineMs`
 * for the whole exchange. Whatever answers at the configured address may send an answer that never
 * ends, in one burst or a byte at a time; past either bound the request is aborted (its socket
 * destroyed, nothing more is read) and the error says which bound it hit.
 */
import { type Agent, request } from 'node:http';

export interface BoundedRequest {
  method?: 'GET' | 'POST';
  agent: Agent;
  headers: Record<string, string>;
  body?: string;
  maxBytes: number;
  /** For the whole exchange, not an idle time: a trickle of bytes does not keep it alive. */
  deadlineMs: number;
}

export interface BoundedAnswer {
  status: number;
  text: string;
}

/** `code`: ETIMEDOUT (the deadline), E_ANSWER_TOO_LARGE (the byte bound) or Node's own. */
export type RequestError = Error & { code?: string; status?: number };

export const ANSWER_TOO_LARGE = 'E_ANSWER_TOO_LARGE';

export function mebibytes(bytes: number): string {
  return `${bytes / (1024 * 1024)} MiB`;
}

export function boundedRequest(url: string, options: BoundedRequest): Promise<BoundedAnswer> {
  return new Promise((done, fail) => {
    const req = request(url, {
      method: options.method ?? 'GET',
      agent: options.agent,
      headers: options.headers,
    });
    const abort = (error: RequestError) => {
      clearTimeout(deadline);
      fail(error);
      req.destroy();
    };
    const deadline = setTimeout(
      () => abort(Object.assign(new Error('no answer'), { code: 'ETIMEDOUT' })),
      options.deadlineMs,
    );
    req.on('response', (res) => {
      // An aborted request errors its response too: the abort has said why.
      res.on('error', () => {});
      const status = res.statusCode ?? 0;
      const declared = Number(res.headers['content-length']);
      const tooLarge = () =>
        abort(
          Object.assign(new Error(`the answer is over ${mebibytes(options.maxBytes)}`), {
            code: ANSWER_TOO_LARGE,
            status,
          }),
        );
      if (declared > options.maxBytes) {
        tooLarge();
        return;
      }
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > options.maxBytes) tooLarge();
        else chunks.push(chunk);
      });
      res.on('end', () => {
        clearTimeout(deadline);
        done({ status, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    // After an abort the promise is settled already: this 'error' (socket hang up) changes nothing.
    req.on('error', (error) => {
      clearTimeout(deadline);
      fail(error);
    });
    req.end(options.body);
  });
}
