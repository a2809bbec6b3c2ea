/**
 * Host memory follows the work asked for, in total as well as per file. A free script can make
 * forty tracked files each just under the per-file limit (sparse: 1.25 GiB in all, no disk);
 * git_status, git_diff, the session's tree hash and a run's capture (what the .zip download is
 * made from) then read at most one pass's MAX_PASS_READ_BYTES, say which files they did not
 * read, and the process's resident memory stays far below the files' size. The memory workspace
 * keeps the same per-file bound.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PASS_READ_BYTES, MAX_WHOLE_FILE_BYTES } from '../../src/engine/file-size.ts';
import { encodeText } from '../../src/engine/text.ts';
import type { Workspace } from '../../src/engine/workspace.ts';
import { concatBytes, shortHash } from '../../src/session/hash.ts';
import { readTree, workspaceHash } from '../../src/session/tree.ts';
import { filesZip } from '../../src/ui/run/run-zip.ts';
import { readRunFiles } from '../../src/ui/run/run-files.ts';
import { RunHistory } from '../../src/worker/run-history.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { NodeWorkspace } from '../../src/workspace/node/node-workspace.ts';
import { useNodeWasm } from '../support/node-wasm.ts';
import { engineOver, hasGitCli, removeTmpRepos, tmpRepo } from '../support/git.ts';
import { truncateSync, watched, type Watched } from '../support/sparse-files.ts';

const GIB = 1 << 30;
/** Files each one byte under the per-file limit: every one could be read alone. */
const NEAR = MAX_WHOLE_FILE_BYTES - 1;
const COUNT = 40;
/** What reading them all would take: about 1.25 GiB. */
const APPARENT = NEAR * COUNT;
/** Resident growth allowed: a quarter of what reading them all would hold (one pass is 64 MiB). */
const RSS_ALLOWED = APPARENT / 4;
/** What git's own files (HEAD, the index, the commit's objects) add to a git tool's reads, at most. */
const GIT_METADATA = 1024 * 1024;

const names = Array.from({ length: COUNT }, (_, i) => `f${String(i).padStart(2, '0')}.bin`);

/** A repository with COUNT small tracked files, then each made NEAR bytes (sparse). */
function nearLimitRepo(extra: Record<string, string> = {}): string {
  const dir = tmpRepo({ ...Object.fromEntries(names.map((n) => [n, 'small\n'])), ...extra });
  for (const n of names) truncateSync(join(dir, n), NEAR);
  return dir;
}

/** Runs `work` over a watched `ws`, sampling resident memory after every read; the growth and the reads. */
async function measured<T>(
  ws: Workspace,
  work: (w: Watched) => Promise<T>,
): Promise<{ result: T; w: Watched; rssGrowth: number }> {
  const w = watched(ws);
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampling = new Proxy(w.ws, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver) as unknown;
      if (key !== 'readFile' || typeof v !== 'function') return v;
      return async (path: string) => {
        const bytes = await (v as Workspace['readFile'])(path);
        peak = Math.max(peak, process.memoryUsage().rss);
        return bytes;
      };
    },
  });
  const result = await work({ ...w, ws: sampling });
  peak = Math.max(peak, process.memoryUsage().rss);
  return { result, w, rssGrowth: peak - before };
}

beforeAll(() => useNodeWasm());
afterAll(removeTmpRepos);

if (!hasGitCli())
  console.log(
    'pass-totals tests skipped: the git command is not installed here (the sparse repositories are made with it)',
  );

describe.skipIf(!hasGitCli())(`${COUNT} tracked files just under the per-file limit (1.25 GiB, sparse)`, () => {
  it("the session's tree hash reads one pass's total, holds one file at a time, and is the same twice", async () => {
    const ws = await NodeWorkspace.open(nearLimitRepo());
    const { result, w, rssGrowth } = await measured(ws, (x) => workspaceHash(x.ws));
    expect(w.total()).toBeLessThanOrEqual(MAX_PASS_READ_BYTES);
    expect(w.read.length).toBeLessThan(COUNT);
    expect(rssGrowth).toBeLessThan(RSS_ALLOWED);
    expect(await workspaceHash(ws)).toBe(result);
  });

  it('git_status lists every one modified after reading one pass’s total', async () => {
    const ws = await NodeWorkspace.open(nearLimitRepo());
    const { result: r, w, rssGrowth } = await measured(ws, (x) => engineOver(x.ws).call('git_status', {}));
    expect(r.ok, r.text).toBe(true);
    for (const n of names) expect(r.text).toContain(` M ${n}`);
    // The pass's total, plus git's own few small files (HEAD, the index, objects).
    expect(w.total()).toBeLessThanOrEqual(MAX_PASS_READ_BYTES + GIT_METADATA);
    expect(rssGrowth).toBeLessThan(RSS_ALLOWED);
  });

  it('git_diff names the files past the total like binary files, saying the pass had read its total', async () => {
    const ws = await NodeWorkspace.open(nearLimitRepo());
    const { result: r, w, rssGrowth } = await measured(ws, (x) => engineOver(x.ws).call('git_diff', {}));
    expect(r.ok, r.text).toBe(true);
    expect(r.text).toMatch(
      /Large file b\/f\d\d\.bin differs: b\/f\d\d\.bin is 32\.0 MiB \(33554431 bytes\) and was not read: this pass had already read the 64 MiB of files one pass reads; not diffed/,
    );
    expect(w.total()).toBeLessThanOrEqual(MAX_PASS_READ_BYTES + GIT_METADATA);
    expect(rssGrowth).toBeLessThan(RSS_ALLOWED);
  });

  it("a run's capture and its .zip: a 1 GiB file and the files past the total are named, never read", async () => {
    const dir = nearLimitRepo({ 'a.js': 'console.log(1)\n' });
    truncateSync(join(dir, 'huge.bin'), GIB - 1);
    const ws = await NodeWorkspace.open(dir);
    const history = new RunHistory();
    const { w, rssGrowth } = await measured(ws, (x) => history.capture(x.ws));
    const client = {
      runTree: async (_run: number, step: number) => history.tree(step),
      runFile: async (_run: number, step: number, path: string) => history.file(step, path),
    };
    const files = await readRunFiles(client, 1, 0);
    const zip = filesZip(files, 'run');
    expect(files.texts.get('a.js')).toBe('console.log(1)\n');
    expect(files.skipped).toContainEqual({
      path: 'huge.bin',
      why: 'huge.bin is 1024.0 MiB (1073741823 bytes), over the 32 MiB a file is read whole',
    });
    expect(files.skipped.filter((s) => /this pass had already read the 64 MiB/.test(s.why)).length).toBeGreaterThan(0);
    expect(w.read).not.toContain('huge.bin');
    expect(w.total()).toBeLessThanOrEqual(MAX_PASS_READ_BYTES);
    expect(rssGrowth).toBeLessThan(RSS_ALLOWED);
    expect(zip.length).toBeLessThan(1024 * 1024);
  });
});

describe('the memory workspace keeps the same bounds', () => {
  it('readFile refuses a file over the per-file limit with EFBIG, naming its size and the limit', async () => {
    const ws = new MemoryWorkspace();
    await ws.writeFile('big.bin', new Uint8Array(MAX_WHOLE_FILE_BYTES + 1));
    await expect(ws.readFile('big.bin')).rejects.toMatchObject({
      code: 'EFBIG',
      message: expect.stringMatching(/big\.bin is 32\.0 MiB \(33554433 bytes\), over the 32 MiB a file is read whole/),
    });
    const tree = await readTree(ws);
    expect(tree).toContainEqual({ path: 'big.bin', type: 'file', tooLarge: MAX_WHOLE_FILE_BYTES + 1 });
  });

  it('the streamed tree hash is the one-digest hash recorded sessions carry, for any small tree', async () => {
    const files = fc.dictionary(
      fc.stringMatching(/^[a-z]{1,6}(\/[a-z]{1,6})?\.txt$/),
      fc.uint8Array({ maxLength: 300 }),
      { maxKeys: 8 },
    );
    await fc.assert(
      fc.asyncProperty(files, async (tree) => {
        const ws = new MemoryWorkspace();
        for (const [path, bytes] of Object.entries(tree)) {
          // A path that is also a file's folder is skipped: the workspace cannot hold both.
          if (await ws.lstat(path.split('/')[0]!).then((s) => s?.type === 'file')) continue;
          await ws.writeFile(path, bytes).catch(() => undefined);
        }
        const chunks: Uint8Array[] = [];
        for (const e of await readTree(ws)) {
          const body = e.bytes ?? encodeText(e.target ?? '');
          chunks.push(encodeText(`${e.type} ${e.path} ${body.length}\n`), body);
        }
        expect(await workspaceHash(ws)).toBe(await shortHash(concatBytes(chunks)));
      }),
      { numRuns: 40 },
    );
  });
});
