import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import secureJson from 'secure-json-parse';
import { ServiceError } from '../protocol/errors.ts';

/**
 * Bodies are JSON or nothing: any other Content-Type is 415 (the error envelope says so), and an
 * empty body is "no payload" whatever Content-Type says (curl -X POST -H 'Content-Type: application/json').
 */
async function jsonBodyPlugin(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, parseBody(text));
    } catch (error) {
      done(error as ServiceError, undefined);
    }
  });
}

export default fp(jsonBodyPlugin, { name: 'json-body' });

/**
 * The JSON of a body, as Fastify's own parser reads it (secure-json-parse: a "__proto__" or
 * "constructor" key could pollute prototypes, so it is refused), but saying what is wrong.
 */
export function parseBody(text: string): unknown {
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    const { message } = error as Error;
    throw new ServiceError(
      'invalid_payload',
      /forbidden prototype property/i.test(message)
        ? 'the body has a "__proto__" or "constructor" key: refused'
        : `the body is not valid JSON: ${message}`,
    );
  }
}
