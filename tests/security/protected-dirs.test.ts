/**
 * Commands under the host sandbox cannot leave anything in `.git/` or `.slmcode/`, also where
 * those directories do not exist yet: a free `node` script that makes `.slmcode/scratch` a link
 * to `../.git` (the scratch area is writable) and then writes a hook through it must leave no
 * hook behind, and a script that creates `.git/` or `.slmcode/` has what it made removed.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.ts';
import { CODING_TOOLS } from '../../src/engine/tools/index.ts';
import { probeHostSandbox, type HostSandbox } from '../../src/workspace/node/host-sandbox.ts';
import { NodeWorkspace } from '../../src/workspace/node/node-workspace.ts';
import { madeGitDirsText, undoneText } from '../../src/workspace/protected-state.ts';
import { useNodeWasm } from '../support/node-wasm.ts';

const probed = await probeHostSandbox();
const sandbox = 'wrap' in probed ? (probed as HostSandbox) : null;
if (!sandbox)
  console.log(`protected-dir tests skipped: bubblewrap cannot run here (${'why' in probed ? probed.why : ''})`);

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function workspace(files: Record<string, string>, git: boolean): Promise<{ root: string; engine: Engine }> {
  useNodeWasm();
  const root = mkdtempSync(join(tmpdir(), 'slm-prot-'));
  dirs.push(root);
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(join(root, p, '..'), { recursive: true });
    writeFileSync(join(root, p), t);
  }
  if (git) execFileSync('git', ['init', '-q'], { cwd: root });
  const ws = await NodeWorkspace.open(root, { sandbox: sandbox! });
  return { root, engine: new Engine({ workspace: ws, tools: CODING_TOOLS, settings: { loop_guard: false } }) };
}

const LINK =
  "require('fs').mkdirSync('.slmcode', { recursive: true }); require('fs').symlinkSync('../.git', '.slmcode/scratch');\n";
const HOOK =
  "const fs = require('fs'); try { fs.writeFileSync('.slmcode/scratch/hooks/pre-commit', '#!/bin/sh\\ntouch HOOK\\n'); console.log('WROTE'); } catch (e) { console.log('refused', e.code); }\n";

describe.skipIf(!sandbox)('commands cannot write .git/ or .slmcode/, existing or not', () => {
  it('a link made in a missing .slmcode/ does not make .git/ writable', async () => {
    const { root, engine } = await workspace({ 'mk.js': LINK, 'hook.js': HOOK }, true);
    const made = await engine.call('ws_shell', { command: 'node mk.js' });
    expect(made.notes.map((n) => n.text).join('\n')).toContain(undoneText(['.slmcode']));
    expect(existsSync(join(root, '.slmcode'))).toBe(false);
    await engine.call('ws_shell', { command: 'node hook.js' });
    expect(existsSync(join(root, '.git/hooks/pre-commit'))).toBe(false);
  });

  it('a link already in .slmcode/scratch is not mounted writable', async () => {
    const { root, engine } = await workspace({ 'hook.js': HOOK }, true);
    mkdirSync(join(root, '.slmcode'));
    execFileSync('ln', ['-s', '../.git', join(root, '.slmcode/scratch')]);
    const r = await engine.call('ws_shell', { command: 'node hook.js' });
    expect(r.text).toMatch(/refused/);
    expect(existsSync(join(root, '.git/hooks/pre-commit'))).toBe(false);
  });

  it('a script that creates .git/ in a workspace without one has it removed', async () => {
    const mk =
      "require('fs').mkdirSync('.git/hooks', { recursive: true }); require('fs').writeFileSync('.git/config', '[core]\\n\\tfsmonitor = touch FSMON\\n');\n";
    const { root, engine } = await workspace({ 'mk.js': mk }, false);
    const r = await engine.call('ws_shell', { command: 'node mk.js' });
    expect(r.notes.map((n) => n.text).join('\n')).toContain(undoneText(['.git']));
    expect(existsSync(join(root, '.git'))).toBe(false);
  });

  it("a pipeline with a git stage does not make a script's .git/ legitimate", async () => {
    const mk =
      "require('fs').mkdirSync('.git/hooks', { recursive: true }); require('fs').writeFileSync('.git/HEAD', 'ref: refs/heads/main\\n');\n";
    const { root, engine } = await workspace({ 'mk.js': mk }, false);
    await engine.call('ws_shell', { command: 'git --version | node mk.js' });
    expect(existsSync(join(root, '.git'))).toBe(false);
  });

  it('names too deep to delete one by one do not keep what a command made', async () => {
    // Each directory is made from inside the last one, so the whole path grows past PATH_MAX.
    const deep = [
      "const fs = require('fs'); const top = process.cwd();",
      "fs.mkdirSync('.slmcode/0', { recursive: true }); process.chdir('.slmcode/0');",
      "for (let i = 0; i < 40; i++) { fs.mkdirSync('d'.repeat(200)); process.chdir('d'.repeat(200)); }",
      "process.chdir(top); fs.writeFileSync('.slmcode/hooks.json', '{}'); console.log('DEEP');",
    ].join('\n');
    const { root, engine } = await workspace({ 'deep.js': deep }, true);
    const r = await engine.call('ws_shell', { command: 'node deep.js' });
    expect(r.text).toMatch(/DEEP/);
    expect(r.text).not.toMatch(/internal error/);
    expect(existsSync(join(root, '.slmcode'))).toBe(false);
  });

  it('a bare repository a script makes is removed; the repository a .git file names is refused to the file tools and read-only to commands', async () => {
    const bare =
      "const fs = require('fs'); for (const d of ['b/objects', 'b/refs/heads']) fs.mkdirSync(d, { recursive: true }); fs.writeFileSync('b/HEAD', 'ref: refs/heads/main\\n'); fs.writeFileSync('b/config', '[core]\\n\\tfsmonitor = touch FSMON\\n');\n";
    const hook =
      "try { require('fs').writeFileSync('.repo/hooks/pre-commit', '#!/bin/sh\\ntouch HOOK\\n'); console.log('WROTE'); } catch (e) { console.log('refused', e.code); }\n";
    const { root, engine } = await workspace(
      {
        'bare.js': bare,
        'hook.js': hook,
        'w/.git': 'gitdir: ../.repo\n',
        '.repo/HEAD': 'ref: refs/heads/main\n',
        '.repo/config': '[core]\n',
        '.repo/hooks/.keep': '',
      },
      true,
    );
    const made = await engine.call('ws_shell', { command: 'node bare.js' });
    expect(made.notes.map((n) => n.text).join('\n')).toContain(madeGitDirsText(['b']));
    expect(existsSync(join(root, 'b'))).toBe(false);
    const w = await engine.call('ws_write', { path: '.repo/hooks/pre-commit', content: '#!/bin/sh\ntouch HOOK\n' });
    expect(w.text).toContain("the git directory w/.git names) is inside .git/, git's own state");
    const r = await engine.call('ws_shell', { command: 'node hook.js' });
    expect(r.text).toMatch(/refused EROFS/);
    expect(existsSync(join(root, '.repo/hooks/pre-commit'))).toBe(false);
  });
});
