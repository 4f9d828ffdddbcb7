/**
 * Counts this process's open TCP sockets whose far end is a given port: the client sockets a link
 * holds open to a server, whatever the server does with its side. Read from /proc (Linux): a
 * descriptor of /proc/self/fd is `socket:[inode]`, and /proc/self/net/tcp{,6} names each inode's
 * addresses. A connection the kernel still winds down after its descriptor was closed has no
 * descriptor here, so it is not counted: this is what the process holds, not what the kernel does.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';

export async function openSocketsTo(port: number): Promise<number> {
  const inodes = new Set<string>();
  for (const fd of await readdir('/proc/self/fd')) {
    // A descriptor closed between the listing and the read is simply not counted.
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode) inodes.add(inode);
  }
  let count = 0;
  for (const table of ['/proc/self/net/tcp', '/proc/self/net/tcp6']) {
    const text = await readFile(table, 'utf8').catch(() => '');
    // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
    for (const row of text.split('\n').slice(1)) {
      const fields = row.trim().split(/\s+/);
      const remotePort = Number.parseInt(fields[2]?.split(':')[1] ?? '', 16);
      if (remotePort === port && inodes.has(fields[9] ?? '')) count += 1;
    }
  }
  return count;
}
