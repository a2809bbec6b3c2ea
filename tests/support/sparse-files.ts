/**
 * Test kit for host memory against file size: sparse files (any size, no disk used, as a free
 * script makes them) and a Workspace whose reads are watched, so a test can assert what was read.
 */
import { closeSync, ftruncateSync, openSync } from 'node:fs';
import type { Workspace } from '../../src/engine/workspace.ts';

/** Makes (or resizes) `path` a sparse file of `size` bytes: no disk used, as a script would. */
export function truncateSync(path: string, size: number): void {
  const fd = openSync(path, 'a');
  try {
    ftruncateSync(fd, size);
  } finally {
    closeSync(fd);
  }
}

/** What a watched workspace has read: the paths, the largest answer and the bytes in all. */
export interface Watched {
  readonly ws: Workspace;
  readonly read: string[];
  largest(): number;
  total(): number;
}

/** `ws` with every readFile watched: the paths read, the largest answer, and the bytes read in all. */
export function watched(ws: Workspace): Watched {
  const read: string[] = [];
  let largest = 0;
  let total = 0;
  const proxy = new Proxy(ws, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver) as unknown;
      if (key !== 'readFile' || typeof v !== 'function') return typeof v === 'function' ? v.bind(target) : v;
      return async (path: string) => {
        read.push(path);
        const bytes = (await (v as Workspace['readFile']).call(target, path)) as Uint8Array;
        largest = Math.max(largest, bytes.length);
        total += bytes.length;
        return bytes;
      };
    },
  });
  return { ws: proxy, read, largest: () => largest, total: () => total };
}
