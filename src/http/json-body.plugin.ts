import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Bodies are JSON or nothing: any other Content-Type is 415 (the error envelope says so), and an
 * empty body is "no payload" whatever Content-Type says (curl -X POST -H 'Content-Type: application/json').
 */
async function jsonBodyPlugin(app: FastifyInstance): Promise<void> {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, done);
  });
}

export default fp(jsonBodyPlugin, { name: 'json-body' });
