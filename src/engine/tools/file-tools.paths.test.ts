/**
 * The whole paths-dev.json corpus through the file tools: every refusal is the jail's own text
 * and writes nothing anywhere (the snapshot covers the whole in-memory filesystem, /outside
 * included); every allowed write lands at the jailed physical path and nowhere else.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine.ts';
import { resolvePath } from '../jail.ts';
import { pathFixtureWorkspace } from '../../../tests/support/path-fixture.ts';
import { readJson } from '../../../tests/support/corpus.ts';
import { FILE_TOOLS, readText, snapshotFs } from '../../../tests/support/file-tools.ts';
import type { Workspace } from '../workspace.ts';

interface PathCase {
  path: string;
  op: 'read' | 'write';
  expect: 'ok' | 'refuse';
  why: string;
}

const BODY = 'written by the path corpus test\n';
const cases = readJson<PathCase[]>('paths-dev.json');

async function setup() {
  const ws = await pathFixtureWorkspace();
  const engine = new Engine({ workspace: ws, tools: FILE_TOOLS, settings: { loop_guard: false } });
  return { ws, engine, before: await snapshotFs(ws) };
}

/** Only the files under the root may differ between two snapshots. */
function outsideRoot(snap: Map<string, string>): [string, string][] {
  return [...snap].filter(([p]) => p !== '/ws' && !p.startsWith('/ws/'));
}

describe('paths-dev.json through ws_write and ws_read', () => {
  const label = (c: PathCase) => `${c.op} ${JSON.stringify(c.path)} → ${c.expect} (${c.why})`;

  it.each(cases.filter((c) => c.op === 'write').map((c) => [label(c), c] as const))('ws_write %s', async (_n, c) => {
    const { ws, engine, before } = await setup();
    const jailed = await resolvePath(ws, c.path, 'write');
    if (c.expect === 'refuse') {
      const r = await engine.call('ws_write', { path: c.path, content: BODY });
      expect(r.ok).toBe(false);
      expect(jailed.ok).toBe(false);
      if (!jailed.ok) expect(r.text).toBe(jailed.text);
      expect(await snapshotFs(ws)).toEqual(before);
      return;
    }
    // An allowed write to an existing file still needs a read first (read_before_edit).
    await engine.call('ws_read', { path: c.path });
    const r = await engine.call('ws_write', { path: c.path, content: BODY });
    expect(r.ok, r.text).toBe(true);
    if (!jailed.ok) throw new Error(`the jail refused an ok case: ${jailed.text}`);
    expect(await readText(ws, jailed.path)).toBe(BODY);
    const after = await snapshotFs(ws);
    expect(outsideRoot(after)).toEqual(outsideRoot(before));
    const changed = [...after]
      .filter(([p, v]) => before.get(p) !== v && !after.get(p)?.startsWith('dir'))
      .map(([p]) => p);
    expect(changed).toEqual([`/ws/${jailed.path}`]);
    expect([...before.keys()].filter((p) => !after.has(p))).toEqual([]);
  });

  it.each(cases.filter((c) => c.op === 'write' && c.expect === 'refuse').map((c) => [label(c), c] as const))(
    'every other writing tool refuses %s and writes nothing',
    async (_n, c) => {
      const { ws, engine, before } = await setup();
      const calls: [string, Record<string, unknown>][] = [
        ['ws_replace_lines', { path: c.path, start: 1, end: 1, new: 'x', hash: '0000' }],
        ['ws_delete', { path: c.path }],
        ['ws_mv', { from: c.path, to: 'moved.txt' }],
        ['ws_mv', { from: 'README.md', to: c.path }],
      ];
      for (const [tool, args] of calls) {
        const r = await engine.call(tool, args);
        expect(r.ok, `${tool} ${JSON.stringify(args)}: ${r.text}`).toBe(false);
      }
      expect(await snapshotFs(ws)).toEqual(before);
    },
  );

  it.each(cases.map((c) => [label(c), c] as const))('ws_read %s', async (_n, c) => {
    const { ws, engine, before } = await setup();
    const jailed = await resolvePath(ws, c.path, 'read');
    const r = await engine.call('ws_read', { path: c.path });
    // Nothing from outside the root is ever shown, whatever the case.
    expect(r.text).not.toContain('contents of /');
    expect(await snapshotFs(ws)).toEqual(before);
    if (c.op !== 'read') return;
    expect(jailed.ok ? 'ok' : 'refuse').toBe(c.expect);
    if (!jailed.ok) {
      expect(r).toMatchObject({ ok: false, text: jailed.text });
    } else if ((await ws.lstat(jailed.path))?.type === 'file') {
      expect(r.ok).toBe(true);
      expect(r.text).toContain(`|contents of ${jailed.path}`);
    }
  });
});

/**
 * The path classes of jail.ts through the tools, on every backend: a refusal is the jail's own
 * message (never "internal error ENAMETOOLONG"), and reading an existing file whose name only
 * a write would refuse still works.
 */
describe('path classes through the tools, on every backend', async () => {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { MemoryWorkspace } = await import('../../workspace/memory/memory-workspace.ts');
  const { NodeWorkspace } = await import('../../workspace/node/node-workspace.ts');
  const { encodeText } = await import('../text.ts');
  const backends: [string, () => Promise<{ ws: Workspace; done: () => Promise<void> }>][] = [
    ['memory', async () => ({ ws: new MemoryWorkspace(), done: async () => {} })],
    [
      'node',
      async () => {
        const dir = await mkdtemp(join(tmpdir(), 'slm-paths-'));
        return { ws: await NodeWorkspace.open(dir), done: () => rm(dir, { recursive: true, force: true }) };
      },
    ],
  ];
  const rows: [string, Record<string, unknown>, string, RegExp][] = [
    [
      'ws_write, a 300-byte name',
      { path: `src/${'n'.repeat(300)}.js`, content: 'x\n' },
      'jail:name-too-long',
      /^path refused — .*is 303 bytes long, over the 255-byte limit filesystems set for one name\. Choose a shorter name\.$/,
    ],
    [
      'ws_write, a path over PATH_MAX',
      { path: Array.from({ length: 20 }, () => 'd'.repeat(250)).join('/'), content: 'x\n' },
      'jail:path-too-long',
      /with the workspace root in front, over the system's limit of 4,095 bytes/,
    ],
    ['ws_read, a 300-byte name', { path: 'r'.repeat(300) }, 'jail:name-too-long', /is 300 bytes long/],
    [
      'ws_write, ~/…',
      { path: '~/.bashrc', content: 'x\n' },
      'jail:tilde',
      /starts with "~", which a shell expands to a home directory/,
    ],
    [
      'ws_write, a "?" in a name',
      { path: 'what?.md', content: 'x\n' },
      'jail:windows-char',
      /contains "\?", which Windows does not allow in file names/,
    ],
    [
      'ws_write, a look-alike .git',
      { path: '.g\u0456t/config', content: '[core]\n' },
      'jail:confusable',
      /look-alike spelling of \.git/,
    ],
  ];
  for (const [backend, open] of backends) {
    it.each(rows.map((r) => [`${backend}: ${r[0]}`, r] as const))(
      '%s is refused by the jail',
      async (_t, [, args, rule, says]) => {
        const { ws, done } = await open();
        try {
          const engine = new Engine({ workspace: ws, tools: FILE_TOOLS, settings: { loop_guard: false } });
          const r = await engine.call('path' in args && 'content' in args ? 'ws_write' : 'ws_read', args);
          expect(r.ok).toBe(false);
          expect(r.text).toMatch(says);
          expect(r.notes.map((n) => n.detail)).toContain(rule);
          expect(await ws.readdir('')).toEqual([]);
        } finally {
          await done();
        }
      },
    );
    it(`${backend}: reading an existing file named with "?" and "*" works; writing a new one is refused`, async () => {
      const { ws, done } = await open();
      try {
        await ws.writeFile('odd?name*.txt', encodeText('kept\n'));
        const engine = new Engine({ workspace: ws, tools: FILE_TOOLS, settings: { loop_guard: false } });
        const read = await engine.call('ws_read', { path: 'odd?name*.txt' });
        expect(read.ok).toBe(true);
        expect(read.text).toContain('kept');
        const write = await engine.call('ws_write', { path: 'new?.txt', content: 'x\n' });
        expect(write.ok).toBe(false);
        expect(write.text).toMatch(/Windows does not allow/);
      } finally {
        await done();
      }
    });
  }
});
