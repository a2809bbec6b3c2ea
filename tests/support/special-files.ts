/** A FIFO (`pipe`) and a listening Unix socket (`sock`) in a directory: entries a command can make that are not files. */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** Makes both in `dir`; `remove` closes the socket's server and deletes `dir`. */
export async function makeSpecialFiles(dir: string): Promise<{ remove(): void }> {
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(join(dir, 'sock'), resolve));
  return {
    remove() {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
