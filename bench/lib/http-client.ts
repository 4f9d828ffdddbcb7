import { Agent, request } from 'node:http';
import type { CommandAnswer } from '../../src/core/dispatcher.ts';

export interface Answer {
  status: number;
  body: unknown;
}

/** A keep-alive HTTP client for one server: one socket, reused, so a timing covers the request only. */
export class HttpClient {
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 1 });

  constructor(readonly port: number) {}

  get(path: string): Promise<Answer> {
    return this.#send('GET', path, undefined);
  }

  post(path: string, payload?: unknown): Promise<Answer> {
    return this.#send('POST', path, payload === undefined ? undefined : JSON.stringify(payload));
  }

  /** Runs an action and fails the bench on anything but 200: a refused command measures nothing. */
  async action(action: string, payload?: unknown): Promise<CommandAnswer> {
    const answer = await this.post(`/api/actions/${action}`, payload);
    if (answer.status !== 200)
      throw new Error(`${action} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body as CommandAnswer;
  }

  close(): void {
    this.#agent.destroy();
  }

  #send(method: string, path: string, body: string | undefined): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> =
        body === undefined
          ? {}
          : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
      const outgoing = request(
        { host: '127.0.0.1', port: this.port, method, path, headers, agent: this.#agent },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.once('end', () =>
            resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }),
          );
        },
      );
      outgoing.once('error', reject);
      outgoing.end(body);
    });
  }
}

/** A complete bo3 veto over seven maps: three series maps, so set_map_result has a map 1. */
export const BO3_VETO = {
  boFormat: 'bo3',
  teamA: { name: 'Alpha' },
  teamB: { name: 'Bravo' },
  steps: [
    { type: 'ban', team: 'A', map: 'ancient' },
    { type: 'ban', team: 'B', map: 'anubis' },
    { type: 'pick', team: 'A', map: 'mirage' },
    { type: 'pick', team: 'B', map: 'inferno' },
    { type: 'ban', team: 'A', map: 'nuke' },
    { type: 'ban', team: 'B', map: 'overpass' },
    { type: 'decider', map: 'dust2' },
  ],
};
