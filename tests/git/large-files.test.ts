/**
 * Host memory follows the work asked for, not a file's size. A free script can make a tracked
 * file 1 GiB without using disk (a sparse file); git_status, git_diff, the session's tree hash,
 * the file tools and NodeWorkspace.readFile stat it first and never read it whole. Each case
 * watches the workspace's reads: none of them may return more than MAX_WHOLE_FILE_BYTES.
 */
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WHOLE_FILE_BYTES } from '../../src/engine/file-size.ts';
import { NodeWorkspace } from '../../src/workspace/node/node-workspace.ts';
import { workspaceHash } from '../../src/session/tree.ts';
import { useNodeWasm } from '../support/node-wasm.ts';
import { engineOver, hasGitCli, removeTmpRepos, runGit, tmpRepo } from '../support/git.ts';
import { truncateSync, watched } from '../support/sparse-files.ts';

const GIB = 1 << 30;

beforeAll(() => useNodeWasm());
afterAll(removeTmpRepos);

describe.skipIf(!hasGitCli())('a 1 GiB sparse file in the workspace', () => {
  it('NodeWorkspace.readFile refuses it (EFBIG) without reading, naming its size and the limit', async () => {
    const dir = tmpRepo({ 'big.bin': '' });
    truncateSync(join(dir, 'big.bin'), GIB - 1);
    const ws = await NodeWorkspace.open(dir);
    const before = process.memoryUsage().arrayBuffers;
    await expect(ws.readFile('big.bin')).rejects.toMatchObject({
      code: 'EFBIG',
      message: expect.stringMatching(/big\.bin is 1024\.0 MiB \(1073741823 bytes\), over the 32 MiB/),
    });
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(MAX_WHOLE_FILE_BYTES);
  });

  it('git_status reports it modified without reading it', async () => {
    const dir = tmpRepo({ 'big.bin': 'small\n', 'a.txt': 'a\n' });
    truncateSync(join(dir, 'big.bin'), GIB - 1);
    const w = watched(await NodeWorkspace.open(dir));
    const r = await engineOver(w.ws).call('git_status', {});
    expect(r.ok, r.text).toBe(true);
    expect(r.text).toContain(' M big.bin');
    expect(w.read).not.toContain('big.bin');
    expect(w.largest()).toBeLessThanOrEqual(MAX_WHOLE_FILE_BYTES);
  });

  it('git_diff says it is too large to diff, like a binary file, without reading it', async () => {
    const dir = tmpRepo({ 'big.bin': 'small\n' });
    truncateSync(join(dir, 'big.bin'), GIB - 1);
    const w = watched(await NodeWorkspace.open(dir));
    const r = await engineOver(w.ws).call('git_diff', {});
    expect(r.ok, r.text).toBe(true);
    expect(r.text).toMatch(
      /diff --git a\/big\.bin b\/big\.bin\nLarge file b\/big\.bin differs: .*over the 32 MiB.*not diffed/,
    );
    expect(r.text).not.toContain('@@');
    expect(w.read).not.toContain('big.bin');
  });

  it('an untracked one is a new file too large to diff', async () => {
    const dir = tmpRepo({ 'a.txt': 'a\n' });
    truncateSync(join(dir, 'new.bin'), GIB - 1);
    const w = watched(await NodeWorkspace.open(dir));
    const r = await engineOver(w.ws).call('git_diff', {});
    expect(r.text).toMatch(/new file mode 100644\nLarge file b\/new\.bin differs/);
    expect(w.read).not.toContain('new.bin');
  });

  it('ws_read answers that it is too large to read whole, with a next step', async () => {
    const dir = tmpRepo({ 'a.txt': 'a\n' });
    truncateSync(join(dir, 'big.txt'), GIB - 1);
    const w = watched(await NodeWorkspace.open(dir));
    const r = await engineOver(w.ws).call('ws_read', { path: 'big.txt' });
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(/big\.txt is 1024\.0 MiB .*over the 32 MiB a file is read whole.*head -c/);
    expect(w.read).not.toContain('big.txt');
  });

  it("the session's tree hash stats it, counts its size and never reads it", async () => {
    const dir = tmpRepo({ 'a.txt': 'a\n' });
    truncateSync(join(dir, 'big.bin'), GIB - 1);
    const w = watched(await NodeWorkspace.open(dir));
    const first = await workspaceHash(w.ws);
    expect(w.read).not.toContain('big.bin');
    truncateSync(join(dir, 'big.bin'), GIB - 2);
    expect(await workspaceHash(w.ws)).not.toBe(first);
  });
});

describe.skipIf(!hasGitCli())("git's stat shortcut", () => {
  it('a tracked file with the size and time the index recorded is not read at all', async () => {
    const dir = tmpRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const w = watched(await NodeWorkspace.open(dir));
    const r = await engineOver(w.ws).call('git_status', {});
    expect(r.text).toContain('nothing to commit');
    expect(w.read.filter((p) => !p.startsWith('.git/'))).toEqual([]);
  });

  it('the same size with another time is hashed, and an unchanged blob stays clean', async () => {
    const dir = tmpRepo({ 'a.txt': 'a\n' });
    utimesSync(join(dir, 'a.txt'), new Date(2001, 1, 1), new Date(2001, 1, 1));
    const w = watched(await NodeWorkspace.open(dir));
    const r = await engineOver(w.ws).call('git_status', {});
    expect(w.read).toContain('a.txt');
    expect(r.text).toContain('nothing to commit');
    // Real git agrees once its own stat cache is refreshed.
    expect(runGit(dir, ['status', '--short'])).toBe('');
  });
});
