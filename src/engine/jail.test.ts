import { describe, expect, it } from 'vitest';
import { resolvePath } from './jail.ts';
import { pathFixtureWorkspace } from '../../tests/support/path-fixture.ts';
import { readJson } from '../../tests/support/corpus.ts';

interface PathCase {
  path: string;
  op: 'read' | 'write';
  expect: 'ok' | 'refuse';
  why: string;
}

describe('jail: shared/corpus/paths-dev.json', async () => {
  const cases = readJson<PathCase[]>('paths-dev.json');
  const ws = await pathFixtureWorkspace();
  it.each(cases.map((c) => [`${c.op} ${JSON.stringify(c.path)} → ${c.expect} (${c.why})`, c] as const))('%s', async (_n, c) => {
    const r = await resolvePath(ws, c.path, c.op);
    expect(r.ok ? 'ok' : 'refuse').toBe(c.expect);
    if (!r.ok) expect(r.text.length).toBeGreaterThan(20);
  });
});

describe('jail: messages', async () => {
  const ws = await pathFixtureWorkspace();
  it('uses the spec text for .slmcode/ writes', async () => {
    const r = await resolvePath(ws, '.slmcode/hooks.json', 'write');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.text).toBe(
        'write refused — .slmcode/hooks.json is harness control state, not project source.\n' +
          'Files under .slmcode/ (hooks.json, config.yaml, pending/, checkpoints/) configure the\n' +
          'harness itself and are never edited by tools.\n' +
          'If you need scratch space, write under .slmcode/scratch/ instead.',
      );
    }
  });
  it('resolves an intermediate symlink to the physical path', async () => {
    const r = await resolvePath(ws, 'link-in/index.ts', 'write');
    expect(r).toMatchObject({ ok: true, path: 'src/index.ts', display: 'link-in/index.ts' });
  });
  it('lets reads name the root', async () => {
    expect(await resolvePath(ws, '.', 'read')).toMatchObject({ ok: true, path: '' });
  });
  it('names the symlink and its target when a link leads out', async () => {
    const r = await resolvePath(ws, 'link-out/secret.txt', 'read');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.text).toContain('link-out → /outside');
  });
});

describe('jail: git state is never written', async () => {
  const ws = await pathFixtureWorkspace();
  it.each([
    ['.git/config', 'write', false],
    ['.git/hooks/pre-commit', 'write', false],
    ['vendor/lib/.git/config', 'write', false],
    ['.GIT/config', 'write', false],
    ['.git/config', 'read', true],
    ['.github/workflows/ci.yml', 'write', true],
    ['.gitignore', 'write', true],
  ] as const)('%s (%s) → ok=%s', async (path, op, okExpected) => {
    const r = await resolvePath(ws, path, op);
    expect(r.ok).toBe(okExpected);
    if (!r.ok) expect(r.text).toContain('git_status');
  });
});
