/** Builds ../shared/corpus/path-fixture.json in a memory workspace (root /ws, sibling /outside). */
import { readFileSync } from 'node:fs';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { corpusPath } from './corpus.ts';

interface Fixture {
  root: string;
  outside: string;
  files: string[];
  dirs: string[];
  symlinks: Record<string, string>;
}

export async function pathFixtureWorkspace(): Promise<MemoryWorkspace> {
  const fx = JSON.parse(readFileSync(corpusPath('path-fixture.json'), 'utf8')) as Fixture;
  const ws = new MemoryWorkspace(undefined, fx.root);
  const abs = (p: string) => (p.startsWith('/') ? p : `${fx.root}/${p}`);
  for (const d of fx.dirs) await ws.fs.mkdir(abs(d), { recursive: true });
  for (const f of fx.files) {
    const a = abs(f);
    await ws.fs.mkdir(a.slice(0, a.lastIndexOf('/')) || '/', { recursive: true });
    await ws.fs.writeFile(a, `contents of ${f}\n`);
  }
  for (const [link, target] of Object.entries(fx.symlinks)) await ws.fs.symlink(target, abs(link));
  return ws;
}
