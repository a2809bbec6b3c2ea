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
  it.each(cases.map((c) => [`${c.op} ${JSON.stringify(c.path)} → ${c.expect} (${c.why})`, c] as const))(
    '%s',
    async (_n, c) => {
      const r = await resolvePath(ws, c.path, c.op);
      expect(r.ok ? 'ok' : 'refuse').toBe(c.expect);
      if (!r.ok) expect(r.text.length).toBeGreaterThan(20);
    },
  );
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

/**
 * Paths another layer reads differently, and names no filesystem takes: one row per class and
 * message. `says` is matched against the refusal; an ok row names the physical path.
 */
describe('jail: paths read differently elsewhere, and over-long names', async () => {
  const ws = await pathFixtureWorkspace();
  const long = (n: number, ch = 'a') => ch.repeat(n);
  type Row = readonly [
    name: string,
    path: string,
    op: 'read' | 'write',
    want: { rule: string; says: RegExp } | { path: string },
  ];
  const rows: Row[] = [
    // A first segment "~…": a shell expands it.
    [
      '~/ (write)',
      '~/notes.md',
      'write',
      {
        rule: 'tilde',
        says: /^path refused — "~\/notes\.md" starts with "~", which a shell expands to a home directory[\s\S]*: write "notes\.md", or choose a name that does not start with "~"\.$/,
      },
    ],
    [
      '~ alone (write)',
      '~',
      'write',
      { rule: 'tilde', says: /^path refused — "~" starts with "~".*Paths are relative to the project root, or choose/ },
    ],
    ['~user/ (write)', '~root/.bashrc', 'write', { rule: 'tilde', says: /starts with "~"/ }],
    ['./~/ (write)', './~/x', 'write', { rule: 'tilde', says: /starts with "~"/ }],
    ['~/ (read: a file of that name in the workspace, harmless)', '~/notes.md', 'read', { path: '~/notes.md' }],
    ['~ later in the path', 'src/~backup/a.ts', 'write', { path: 'src/~backup/a.ts' }],
    ['a trailing ~ (an editor backup)', 'notes.md~', 'write', { path: 'notes.md~' }],
    // ".." right after a symlink: the kernel resolves the link first.
    [
      '.. after a link inside (write)',
      'link-in/../README.md',
      'write',
      {
        rule: 'dotdot-after-symlink',
        says: /^path refused — "link-in\/\.\.\/README\.md" uses "\.\." right after the symlink link-in \(→ src\)\. The system resolves the link first[\s\S]*Write the path without "\.\.": "README\.md" if you mean the file beside the link\.$/,
      },
    ],
    [
      '.. after a link inside (read)',
      'link-in/../package.json',
      'read',
      { rule: 'dotdot-after-symlink', says: /right after the symlink link-in \(→ src\)/ },
    ],
    [
      '.. after a link outside (read)',
      'link-out/../package.json',
      'read',
      { rule: 'dotdot-after-symlink', says: /right after the symlink link-out \(→ \/outside\)/ },
    ],
    [
      '.. after a link below the link',
      'link-out/x/../../src/index.ts',
      'read',
      { rule: 'symlink-out', says: /goes through the symlink link-out → \/outside/ },
    ],
    ['.. after a plain directory', 'src/../README.md', 'write', { path: 'README.md' }],
    ['.. after a plain name below a link', 'link-in/utils/../index.ts', 'write', { path: 'src/index.ts' }],
    // Names no filesystem takes.
    ['a 255-byte name', long(255), 'write', { path: long(255) }],
    [
      'a 256-byte name (write)',
      `src/${long(256)}.ts`,
      'write',
      {
        rule: 'name-too-long',
        says: /^path refused — "src\/a+…": the name "a{40}…" is 259 bytes long, over the 255-byte limit filesystems set for one name\. Choose a shorter name\.$/,
      },
    ],
    ['a 256-byte name (read)', long(256), 'read', { rule: 'name-too-long', says: /is 256 bytes long/ }],
    [
      'bytes, not characters: 86 × 日 is 258 bytes',
      long(86, '日'),
      'write',
      { rule: 'name-too-long', says: /is 258 bytes long/ },
    ],
    [
      'a path over PATH_MAX with the root',
      Array.from({ length: 17 }, () => long(250)).join('/'),
      'write',
      {
        rule: 'path-too-long',
        says: /^path refused — ".{200}…" is 4,270 bytes long with the workspace root in front, over the system's limit of 4,095 bytes\. Use a shorter path/,
      },
    ],
    // Look-alikes of .git and .slmcode (UTS #39 skeleton).
    [
      'Cyrillic і in .git',
      '.g\u0456t/config',
      'write',
      {
        rule: 'confusable',
        says: /^path refused — ".g\u0456t\/config": ".g\u0456t" is a look-alike spelling of \.git\. Use plain ASCII names\.$/,
      },
    ],
    [
      'dotless ı in a nested .git',
      'vendor/.g\u0131t/hooks/post-checkout',
      'write',
      { rule: 'confusable', says: /look-alike spelling of \.git/ },
    ],
    [
      'Greek ο and Cyrillic ѕ in .slmcode',
      '.\u0455lmc\u03bfde/hooks.json',
      'write',
      { rule: 'confusable', says: /look-alike spelling of \.slmcode/ },
    ],
    [
      'fullwidth .slmcode (read too)',
      '\uff0eslmcode/config.yaml',
      'read',
      { rule: 'confusable', says: /look-alike spelling of \.slmcode/ },
    ],
    [
      'digit one for l',
      '.s1mcode/hooks.json',
      'write',
      { rule: 'confusable', says: /look-alike spelling of \.slmcode/ },
    ],
    ['rn for m', '.slrncode/hooks.json', 'write', { rule: 'confusable', says: /look-alike spelling of \.slmcode/ }],
    ['cl for d', '.slmcocle/x', 'write', { rule: 'confusable', says: /look-alike spelling of \.slmcode/ }],
    [
      'small capitals ᴅ, ᴇ and ʟ',
      '.s\u029fmco\u1d05\u1d07/x',
      'write',
      { rule: 'confusable', says: /look-alike spelling of \.slmcode/ },
    ],
    [
      'small capital ᴍ, and all small capitals',
      '.\ua731\u029f\u1d0d\u1d04\u1d0f\u1d05\u1d07/x',
      'write',
      { rule: 'confusable', says: /look-alike spelling of \.slmcode/ },
    ],
    ['small capital ɢ in .git', '.\u0262it/x', 'write', { rule: 'confusable', says: /look-alike spelling of \.git/ }],
    [
      'a mark on a letter (ė)',
      '.slmcod\u0117/x',
      'write',
      { rule: 'confusable', says: /look-alike spelling of \.slmcode/ },
    ],
    ['a letter with a mark that is its own name (café)', 'caf\u00e9/x', 'write', { path: 'caf\u00e9/x' }],
    ['Cyrillic т in .git', '.gi\u0442/config', 'write', { rule: 'confusable', says: /look-alike spelling of \.git/ }],
    [
      'capital I for l',
      '.sImcode/hooks.json',
      'write',
      { rule: 'confusable', says: /^path refused — .*"\.sImcode" is a look-alike spelling of \.slmcode/ },
    ],
    [
      'Greek capital iota for l',
      '.s\u0399mcode/x',
      'write',
      { rule: 'confusable', says: /look-alike spelling of \.slmcode/ },
    ],
    [
      'Greek lunate sigma for c (NFKC would make it ς)',
      '.slm\u03f2ode/x',
      'write',
      { rule: 'confusable', says: /look-alike spelling of \.slmcode/ },
    ],
    [
      'capital I in .gIt (a case spelling, refused as .git)',
      '.gIt/config',
      'write',
      { rule: 'git-state', says: /inside \.git\// },
    ],
    [
      'the 8.3 short name of .git',
      'GIT~1/config',
      'write',
      { rule: 'confusable', says: /^path refused — .*"GIT~1" is the Windows short-name \(8\.3\) alias of \.git/ },
    ],
    [
      'the 8.3 short name of .slmcode',
      'slmcod~2/hooks.json',
      'write',
      { rule: 'confusable', says: /alias of \.slmcode/ },
    ],
    ['a tilde name that aliases nothing protected', 'src~1/x', 'write', { path: 'src~1/x' }],
    ['a line separator in a name', 'a\u2028b.txt', 'write', { rule: 'control-char', says: /U\+2028/ }],
    ['a paragraph separator in a name', 'a\u2029b.txt', 'read', { rule: 'control-char', says: /U\+2029/ }],
    [
      'a combining grapheme joiner (invisible)',
      '.git\u034f/config',
      'write',
      { rule: 'control-char', says: /the invisible or control character U\+034F/ },
    ],
    ['a zero-width joiner', '.g\u200dit/config', 'write', { rule: 'control-char', says: /U\+200D/ }],
    ['a name that only resembles: .github', '.github/workflows/ci.yml', 'write', { path: '.github/workflows/ci.yml' }],
    ['a name that only resembles: .gitt', '.gitt/x', 'write', { path: '.gitt/x' }],
    // Windows-illegal characters in a name being written.
    ...(['*', '?', '|', '<', '>', '"'] as const).map((ch): Row => [
      `"${ch}" (write)`,
      `src/a${ch}b.txt`,
      'write',
      {
        rule: 'windows-char',
        says: new RegExp(
          `^path refused — .*: the name "a${ch === '"' ? '\\\\"' : `\\${ch}`}b\\.txt" contains ${ch === '"' ? '"\\\\""' : `"\\${ch}"`}, which Windows does not allow in file names.*Choose a name without \\* \\? \\| < > " :\\.$`,
        ),
      },
    ]),
    ['"?" (read of an existing name: harmless)', 'src/a?b.txt', 'read', { path: 'src/a?b.txt' }],
  ];
  it.each(rows.map((r) => [`${r[0]} (${r[2]})`, r] as const))('%s', async (_title, [, path, op, want]) => {
    const r = await resolvePath(ws, path, op);
    if ('path' in want) {
      expect(r).toMatchObject({ ok: true, path: want.path });
      return;
    }
    expect(r).toMatchObject({ ok: false, rule: want.rule });
    if (!r.ok) expect(r.text).toMatch(want.says);
  });
});
