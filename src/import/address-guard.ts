/**
 * The connections the server opens for a client (a team logo set with set_teams): only to a device
 * of the internet or of the local network, never to this machine (docs/application.md, "Team
 * logos"). The check is on the addresses the socket is given, after DNS, not on the name, so a name
 * that resolves to 127.0.0.1, a redirect into loopback and `http://0x7f.1/` are refused alike,
 * before anything is sent: a refused address cannot tell whether something listens there.
 */
import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Dispatcher } from 'undici';
import { mayFetchFrom } from '../net/address-class.ts';
import { ADDRESS_REFUSED } from '../net/network-errors.ts';

/** Read at each connection: an interface that came up since (a VPN, a hotspot) counts at once. */
function ownAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((entries) =>
    (entries ?? []).map((entry) => entry.address),
  );
}

function refused(): NodeJS.ErrnoException {
  return Object.assign(new Error('the address is not one the server fetches from'), {
    code: ADDRESS_REFUSED,
  });
}

/**
 * net.connect's lookup: the name is resolved here and every address it resolves to must be allowed,
 * or none is used (a name that also points at this machine is no logo host). The socket then
 * connects to exactly the addresses checked.
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) {
      callback(error, '');
      return;
    }
    const own = ownAddresses();
    const [first] = addresses;
    if (first === undefined || !addresses.every(({ address }) => mayFetchFrom(address, own))) {
      callback(refused(), '');
      return;
    }
    if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  });
};

/**
 * An undici dispatcher whose every connection is checked. The caller closes it (`destroy()`) when
 * its requests are done: its sockets are its own.
 */
export async function createAddressGuard(): Promise<Dispatcher> {
  // Loaded with the first logo, so a start never loads undici (docs/performance.md, "Start-up").
  const { Agent, buildConnector } = await import('undici');
  const connect = buildConnector({ lookup: guardedLookup });
  return new Agent({
    connect(options, callback) {
      // net.connect never looks up an address literal (127.0.0.1, ::ffff:7f00:1, what 2130706433
      // becomes in a URL): it is checked here instead.
      if (isIP(options.hostname) !== 0 && !mayFetchFrom(options.hostname, ownAddresses())) {
        callback(refused(), null);
        return;
      }
      connect(options, callback);
    },
  });
}
