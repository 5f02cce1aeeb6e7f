/** Read a whole file, refusing what is not a regular file and never reading past a limit. */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

export type BoundedRead =
  { state: 'read'; bytes: Buffer } | { state: 'not-a-file'; kind: string } | { state: 'too-large'; limitBytes: number };

/**
 * A FIFO, a device (`/dev/zero`) or a folder is refused before any read (stat reports 0 for some of
 * them, and a read could block or never end); a regular file is read up to `limitBytes` + 1, so a
 * file that grows while it is read is still cut off.
 */
export async function readBounded(file: string, limitBytes: number): Promise<BoundedRead> {
  // O_NONBLOCK: opening a FIFO with no writer would otherwise wait for one.
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const s = await handle.stat();
    if (!s.isFile())
      return { state: 'not-a-file', kind: s.isDirectory() ? 'a folder' : s.isFIFO() ? 'a FIFO' : 'a device or socket' };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buffer = Buffer.alloc(Math.min(1 << 20, limitBytes + 1 - total));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > limitBytes) return { state: 'too-large', limitBytes };
    }
    return { state: 'read', bytes: Buffer.concat(chunks) };
  } finally {
    await handle.close();
  }
}
