/**
 * xargs carried out by the runner on the memory and the Node backend: the names a lister prints
 * are split as GNU xargs splits them, and each command xargs would start is judged before it
 * runs — so a workspace whose names hold blanks or newlines (`a /proc/self/environ`,
 * `c⏎/etc/passwd`) cannot make `find … | xargs cat` read outside it. Everyday xargs pipelines
 * still run, with xargs's exit codes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { encodeText } from '../../src/engine/text.ts';
import { MemoryWorkspace, NO_RUNNER_NOTE } from '../../src/workspace/memory/memory-workspace.ts';
import { BACKENDS, cleanupBackends, shellEngine, shellWorkspace } from '../support/shell-backends.ts';

afterAll(cleanupBackends);

const FILES = {
  'a /proc/self/environ': 'planted\n',
  'c\n/etc/passwd': 'planted\n',
  'notes/one.txt': 'alpha\nbeta\n',
  'notes/two.txt': 'gamma\n',
  'src/a.js': 'export const a = 1;\n',
  'src/b.js': 'const b = 2;\n',
};

interface Row {
  readonly command: string;
  readonly ok: boolean;
  /** A pattern the whole result text must match. */
  readonly text: RegExp;
  /** Details of 'shell' or 'refusal' notes the result must carry. */
  readonly notes: readonly string[];
}

const rows: readonly Row[] = [
  {
    command: 'find . -name environ | xargs cat',
    ok: false,
    text: /xargs would run "cat \.\/a \/proc\/self\/environ", and that command refused .*device or kernel file/,
    notes: ['device-path'],
  },
  {
    command: 'find . -name passwd | xargs cat',
    ok: false,
    text: /xargs would run "cat \.\/c \/etc\/passwd", and that command refused .*outside/,
    notes: ['outside-path'],
  },
  {
    command: 'find . -name passwd | xargs -I{} cat {}',
    ok: false,
    text: /xargs would run "cat \/etc\/passwd", and that command refused/,
    notes: ['outside-path'],
  },
  {
    command: 'find notes -name "*.txt" | sort | xargs wc -l',
    ok: true,
    text: /^\s*2 notes\/one\.txt\n\s*1 notes\/two\.txt\n\s*3 total\n\[exit code 0\]$/,
    notes: ['xargs', 'pipeline'],
  },
  {
    command: 'find notes -name "*.txt" | sort | xargs -n 1 wc -l',
    ok: true,
    text: /^\s*2 notes\/one\.txt\n\s*1 notes\/two\.txt\n\[exit code 0\]$/,
    notes: ['xargs'],
  },
  {
    command: 'find src -name "*.js" | xargs grep -l export | wc -l',
    ok: true,
    text: /^\s*1\n\[exit code 0\]$/,
    notes: ['xargs'],
  },
  {
    command: 'ls src | xargs -I{} echo file:{}',
    ok: true,
    text: /^file:a\.js\nfile:b\.js\n\[exit code 0\]$/,
    notes: ['xargs'],
  },
  { command: 'find . -name "*.none" | xargs -r cat', ok: true, text: /no output/, notes: ['xargs'] },
  { command: 'find src -name "*.js" | xargs grep -l nomatch', ok: false, text: /exit code 123/, notes: ['xargs'] },
  {
    command: 'find notes -name "*.txt" | xargs -n 1 cat | wc -l',
    ok: false,
    text: /xargs would run 2 commands here and pipe their output on/,
    notes: ['xargs'],
  },
];

describe.each(BACKENDS)('xargs on the %s backend', (backend) => {
  it.each(rows)('$command', async (row) => {
    const engine = shellEngine(await shellWorkspace(backend, FILES));
    const r = await engine.call('ws_shell', { command: row.command });
    expect(r.text).toMatch(row.text);
    expect(r.ok).toBe(row.ok);
    const details = r.notes.filter((n) => n.kind === 'shell' || n.kind === 'refusal').map((n) => n.detail);
    for (const d of row.notes) expect(details).toContain(d);
    expect(r.text).not.toContain('root:');
  });
});

describe('xargs in a memory workspace that runs no command', () => {
  it.each(['ls notes | xargs -I Q cat Q', 'ls notes | xargs --repl=Q cat Q', 'find notes | xargs cat'])(
    '%s says that nothing ran and why, never that it succeeded',
    async (command) => {
      const ws = new MemoryWorkspace();
      await ws.writeFile('notes/one.txt', encodeText('alpha\n'));
      const r = await shellEngine(ws).call('ws_shell', { command });
      expect(r.ok).toBe(false);
      expect(r.text).not.toMatch(/succeeded/);
      expect(r.text).toContain(NO_RUNNER_NOTE);
    },
  );
});
