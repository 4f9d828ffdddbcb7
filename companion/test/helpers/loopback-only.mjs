// Preloaded into the real Companion of the end-to-end test (node --import): every host name it looks
// up resolves to loopback, so its calls home (update check, module store, usage statistics, cloud)
// end at a closed port of this machine instead of the internet. Addresses pass unchanged: the
// module reaches hud-automation at 127.0.0.1.
import dns from 'node:dns';
import { isIP } from 'node:net';

const original = dns.lookup;
dns.lookup = function lookup(hostname, options, callback) {
  if (isIP(hostname) || hostname === 'localhost') return original.call(this, hostname, options, callback);
  const done = typeof options === 'function' ? options : callback;
  const all = typeof options === 'object' && options?.all;
  process.nextTick(() => (all ? done(null, [{ address: '127.0.0.1', family: 4 }]) : done(null, '127.0.0.1', 4)));
  return {};
};
const originalPromise = dns.promises.lookup;
dns.promises.lookup = function lookup(hostname, options) {
  if (isIP(hostname) || hostname === 'localhost') return originalPromise.call(this, hostname, options);
  const address = { address: '127.0.0.1', family: 4 };
  return Promise.resolve(options?.all ? [address] : address);
};
