// Listens inside the network namespace it is started in (`ip netns exec <ns> node netns-listener.mjs
// <address>`) and hands the listening socket to its parent over the IPC channel, then exits. The
// parent serves on it in its own process: its connections are the namespace's, its handlers the
// test's (test/helpers/netns-listen.ts). Plain JavaScript so that node starts it at once.
import { createServer } from 'node:net';

const [host] = process.argv.slice(2);
const server = createServer();
server.on('error', (error) => {
  process.send({ error: `${error.code ?? ''} ${error.message}` }, () => process.exit(1));
});
server.listen({ host, port: 0 }, () => {
  process.send({ port: server.address().port }, server, () => {
    server.close();
    process.disconnect();
  });
});
