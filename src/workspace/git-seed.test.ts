/**
 * initRepoWithCommit: the seed commit holds exactly the seeded files (ignores honoured), the
 * tree is clean afterwards, the same files always give the same commit and the same `.git`
 * bytes, an existing repository is left alone, and the real git CLI accepts what it wrote.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryWorkspace } from './memory/memory-workspace.ts';
import { NodeWorkspace } from './node/node-workspace.ts';
import { STARTER_TEMPLATE, seedTemplate } from './templates/index.ts';
import { initRepoWithCommit, SEED_AUTHOR, SEED_TIMESTAMP } from './git-seed.ts';
import { commitFiles, openRepo, readHead } from '../engine/git/repo.ts';
import { encodeText } from '../engine/text.ts';
import { engineOver, hasGitCli, runGit, snapshotGitDir } from '../../tests/support/git.ts';

async function starter(): Promise<MemoryWorkspace> {
  const ws = new MemoryWorkspace();
  await seedTemplate(ws, STARTER_TEMPLATE);
  return ws;
}

async function headFiles(ws: MemoryWorkspace | NodeWorkspace): Promise<string[]> {
  const opened = await openRepo(ws, { readOnly: true });
  if (!opened.ok) throw new Error(opened.text);
  return [...(await commitFiles(opened.repo, (await readHead(opened.repo)).commit)).keys()].sort();
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('initRepoWithCommit', () => {
  it('commits exactly the template files, and the tree is clean afterwards', async () => {
    const ws = await starter();
    const seeded = await initRepoWithCommit(ws, 'starter template');
    expect(seeded.created).toBe(true);
    expect(seeded.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(await headFiles(ws)).toEqual(Object.keys(STARTER_TEMPLATE.files).sort());
    expect((await engineOver(ws).call('git_status', {})).text).toBe(
      '## main\nnothing to commit, working tree clean (no changes since the last commit)',
    );
  });

  it('is deterministic: the same files give the same commit id and the same .git bytes', async () => {
    const [a, b] = [await starter(), await starter()];
    const [ca, cb] = [await initRepoWithCommit(a, 'seed'), await initRepoWithCommit(b, 'seed')];
    expect(ca.commit).toBe(cb.commit);
    expect(await snapshotGitDir(a)).toEqual(await snapshotGitDir(b));
  });

  it('leaves an existing repository alone', async () => {
    const ws = await starter();
    const first = await initRepoWithCommit(ws, 'seed');
    const before = await snapshotGitDir(ws);
    await ws.writeFile('extra.txt', encodeText('x\n'));
    expect(await initRepoWithCommit(ws, 'again')).toEqual({ commit: first.commit, created: false });
    expect(await snapshotGitDir(ws)).toEqual(before);
  });

  it('honours .gitignore', async () => {
    const ws = new MemoryWorkspace();
    for (const [p, t] of Object.entries({
      '.gitignore': 'node_modules/\n*.log\n',
      'a.js': 'a\n',
      'x.log': 'l\n',
      'node_modules/m/index.js': 'm\n',
    })) {
      await ws.writeFile(p, encodeText(t));
    }
    await initRepoWithCommit(ws, 'seed');
    expect(await headFiles(ws)).toEqual(['.gitignore', 'a.js']);
  });

  it('throws for a .git that is not a directory', async () => {
    const ws = new MemoryWorkspace();
    await ws.writeFile('.git', encodeText('gitdir: elsewhere\n'));
    await expect(initRepoWithCommit(ws, 'seed')).rejects.toThrow(/\.git is a file/);
  });

  it.skipIf(!hasGitCli())('writes a repository the real git CLI accepts (Node workspace)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slm-seed-'));
    dirs.push(dir);
    const ws = await NodeWorkspace.open(dir);
    await seedTemplate(ws, STARTER_TEMPLATE);
    const { commit } = await initRepoWithCommit(ws, 'starter template');
    runGit(dir, ['fsck', '--strict', '--no-progress']);
    expect(runGit(dir, ['status', '--short', '--branch'])).toBe('## main\n');
    expect(runGit(dir, ['log', '--format=%H %an <%ae> %at %s'])).toBe(
      `${commit} ${SEED_AUTHOR.name} <${SEED_AUTHOR.email}> ${SEED_TIMESTAMP} starter template\n`,
    );
    expect(runGit(dir, ['ls-files']).trim().split('\n')).toEqual(Object.keys(STARTER_TEMPLATE.files).sort());
  });
});
