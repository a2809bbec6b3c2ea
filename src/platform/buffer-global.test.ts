/**
 * The Buffer a browser host installs: without one the git tools say so (no crash), and with
 * the `buffer` package's implementation — what a browser worker gets — seeding, git_status and
 * git_diff work as they do on Node's own Buffer.
 */
import { afterEach, describe, expect, it } from 'vitest';
// The npm package explicitly: in Node a bare 'buffer' is the built-in module.
import { Buffer as PackageBuffer } from 'buffer/index.js';
import { installBufferGlobal } from './buffer-global.ts';
import { MemoryWorkspace } from '../workspace/memory/memory-workspace.ts';
import { STARTER_TEMPLATE, seedTemplate } from '../workspace/templates/index.ts';
import { initRepoWithCommit } from '../workspace/git-seed.ts';
import { encodeText } from '../engine/text.ts';
import { engineOver } from '../../tests/support/git.ts';

const g = globalThis as { Buffer?: unknown };
const nodeBuffer = g.Buffer;
afterEach(() => {
  g.Buffer = nodeBuffer;
});

async function seeded(): Promise<MemoryWorkspace> {
  const ws = new MemoryWorkspace();
  await seedTemplate(ws, STARTER_TEMPLATE);
  await initRepoWithCommit(ws, 'seed');
  return ws;
}

describe('the Buffer global', () => {
  it('missing: git_status explains instead of crashing, and seeding throws a named error', async () => {
    const ws = await seeded();
    delete g.Buffer;
    const r = await engineOver(ws).call('git_status', {});
    expect(r.ok).toBe(false);
    expect(r.text).toContain(
      'the Buffer global isomorphic-git needs was not installed (src/platform/buffer-global.ts)',
    );
    await expect(initRepoWithCommit(new MemoryWorkspace(), 'seed')).rejects.toThrow(/no Buffer global/);
  });

  it('installBufferGlobal installs one when missing and keeps an existing one', () => {
    installBufferGlobal();
    expect(g.Buffer).toBe(nodeBuffer);
    delete g.Buffer;
    installBufferGlobal();
    expect(typeof g.Buffer).toBe('function');
  });

  it("the buffer package's Buffer is enough for seeding, git_status and git_diff", async () => {
    expect(PackageBuffer).not.toBe(nodeBuffer);
    g.Buffer = PackageBuffer;
    const ws = await seeded();
    await ws.writeFile('src/new.js', encodeText('export const x = 1;\n'));
    const engine = engineOver(ws);
    expect((await engine.call('git_status', {})).text.split('\n').slice(0, 2)).toEqual(['## main', '?? src/new.js']);
    expect((await engine.call('git_diff', {})).text).toContain(
      '+++ b/src/new.js\n@@ -0,0 +1 @@\n+export const x = 1;\n',
    );
  });
});
