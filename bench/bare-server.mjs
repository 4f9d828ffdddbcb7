// The ceiling: bare Fastify 5 with one JSON route, started like the real CLI (plain node, a port,
// loopback, pino at warn) so that the bench compares the service with nothing but Fastify itself.
// Plain JavaScript on purpose: it must start the way the built CLI does, without a loader (`node dist/cli.js`).
import { parseArgs } from 'node:util';
import Fastify from 'fastify';

const { values } = parseArgs({ options: { port: { type: 'string' } } });
const app = Fastify({ logger: { level: 'warn' } });
app.get('/health', async () => ({ ok: true, service: 'bare' }));
await app.listen({ port: Number(values.port ?? 0), host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(
  `bare ready\n  HTTP      http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`,
);
const stop = () => app.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
