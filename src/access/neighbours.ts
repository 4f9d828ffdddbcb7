/**
 * The kernel's neighbour table for IPv4 (ARP): the link-layer address behind a peer on one of this
 * machine's links. A host's IPv4 aliases share it, so the budgets count them as one host. Linux
 * publishes the table in /proc/net/arp; where there is no such file nothing is known and each IPv4
 * address stays its own host (docs/access.md).
 */
import { readFileSync } from 'node:fs';

const ARP_TABLE = '/proc/net/arp';
/** ATF_COM: the entry is complete (the peer answered). */
const COMPLETE = 0x2;
/** A peer not in the table (a routed one) is looked up again after this long, not per connection. */
const MISS_MS = 1_000;
/** Entries older than this are read again: an address handed to another device moves with it. */
const FRESH_MS = 60_000;

export class NeighbourTable {
  readonly #path: string;
  readonly #now: () => number;
  #macs = new Map<string, string>();
  #readAt = Number.NEGATIVE_INFINITY;
  readonly #misses = new Map<string, number>();

  constructor(path = ARP_TABLE, now: () => number = () => performance.now()) {
    this.#path = path;
    this.#now = now;
  }

  /** The link-layer address of an IPv4 peer on a local link; undefined when the table has none. */
  macOf(ipv4: string): string | undefined {
    const now = this.#now();
    if (now - this.#readAt >= FRESH_MS) this.#read(now);
    const known = this.#macs.get(ipv4);
    if (known !== undefined) return known;
    const missedAt = this.#misses.get(ipv4);
    if (missedAt !== undefined && now - missedAt < MISS_MS) return undefined;
    // A new peer: its entry appeared when the kernel answered its connection; read once more.
    this.#read(now);
    const mac = this.#macs.get(ipv4);
    if (mac === undefined) this.#remember(ipv4, now);
    return mac;
  }

  #read(now: number): void {
    this.#readAt = now;
    let text: string;
    try {
      text = readFileSync(this.#path, 'latin1');
    } catch {
      return; // No table on this system: every address is its own host.
    }
    const macs = new Map<string, string>();
    // IP address  HW type  Flags  HW address  Mask  Device
    for (const line of text.split('\n').slice(1)) {
      const [ip, , flags, mac] = line.trim().split(/\s+/);
      if (!ip || !mac || (Number.parseInt(flags ?? '', 16) & COMPLETE) === 0) continue;
      if (mac !== '00:00:00:00:00:00') macs.set(ip, mac);
    }
    this.#macs = macs;
  }

  /** Misses are kept for MISS_MS; the list never outgrows what one second of new peers adds. */
  #remember(ipv4: string, now: number): void {
    if (this.#misses.size >= 4_096) {
      for (const [address, at] of this.#misses) if (now - at >= MISS_MS) this.#misses.delete(address);
    }
    this.#misses.set(ipv4, now);
  }
}
