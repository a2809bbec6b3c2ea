/**
 * A missing checker is skipped, never read as broken. Its own file, because registering a
 * WasmSource is per runtime and vitest gives each test file a fresh module graph: here no
 * host has registered one (then a failing one is).
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine.ts';
import { hasWasmSource, setWasmSource } from '../treesitter/loader.ts';
import { wsEdit } from '../tools/ws_edit.ts';
import { FILE_TOOLS, readText, seedWorkspace } from '../../../tests/support/file-tools.ts';
import { checkSyntax } from './check.ts';
import { syntaxPostEdit } from './post-edit.ts';

const PY = 'def f(x):\n    return x + 1\n';

describe('a missing tree-sitter checker', () => {
  it('without a registered WasmSource, Python and Go get no verdict and an edit that breaks them stays', async () => {
    expect(hasWasmSource()).toBe(false);
    const why = 'no tree-sitter runtime is registered in this host; not judged';
    expect(await checkSyntax('a.py', 'def f(:\n')).toEqual({
      status: 'skipped',
      checker: 'tree-sitter-python',
      message: why,
    });
    expect(await checkSyntax('a.go', 'package main\nfunc {')).toEqual({
      status: 'skipped',
      checker: 'tree-sitter-go',
      message: why,
    });

    const ws = await seedWorkspace({ 'a.py': PY });
    const engine = new Engine({ workspace: ws, tools: [...FILE_TOOLS, wsEdit], postEdit: syntaxPostEdit });
    await engine.call('ws_read', { path: 'a.py' });
    const r = await engine.call('ws_edit', { path: 'a.py', old_str: 'return x + 1', new_str: 'return (x + 1' });
    expect(r.ok).toBe(true);
    expect(r.notes.some((n) => n.kind === 'syntax-revert' || n.kind === 'syntax-error')).toBe(false);
    expect(await readText(ws, 'a.py')).toBe('def f(x):\n    return (x + 1\n');
  });

  it('a grammar that fails to load gets no verdict', async () => {
    const offline = () => Promise.reject(new Error('offline'));
    setWasmSource({ runtime: offline, grammar: offline });
    expect(await checkSyntax('a.py', 'def f(:\n')).toEqual({
      status: 'skipped',
      checker: 'tree-sitter-python',
      message: 'the python grammar did not load (offline); not judged',
    });
  });
});
