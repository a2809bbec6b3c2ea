/** An InMemoryFs holding `files` (path → text) under `/ws`, the memory workspace's root, for tests of what reads it directly. */
import { InMemoryFs } from 'just-bash';

export function fsWith(files: Readonly<Record<string, string>>): InMemoryFs {
  const fs = new InMemoryFs();
  fs.mkdirSync('/ws', { recursive: true });
  for (const [p, t] of Object.entries(files)) {
    const abs = `/ws/${p}`;
    fs.mkdirSync(abs.slice(0, abs.lastIndexOf('/')), { recursive: true });
    fs.writeFileSync(abs, t);
  }
  return fs;
}
