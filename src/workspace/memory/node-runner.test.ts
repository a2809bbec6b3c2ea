/** Real Node over a temporary copy of the in-memory files: what is copied, what is said, what is kept. */
import { describe, expect, it } from 'vitest';
import type { InMemoryFs } from 'just-bash';
import { fsWith } from '../../../tests/support/memory-fs.ts';
import { NodeJsEngine } from './node-runner.ts';
import type { JsRequest } from './node-commands.ts';
import { commandsRefused, probeHostSandbox } from '../node/host-sandbox.ts';

const probed = await probeHostSandbox();
const sandbox = 'kind' in probed ? probed : undefined;
if (!sandbox)
  console.log(`NodeJsEngine sandbox tests skipped: bubblewrap cannot run here (${'why' in probed ? probed.why : ''})`);

function request(fs: InMemoryFs, args: string[], over: Partial<JsRequest> = {}): JsRequest {
  return {
    program: 'node',
    fs,
    root: '/ws',
    cwd: '/ws',
    args,
    env: {},
    timeoutMs: 20_000,
    maxOutputBytes: 64 * 1024,
    signal: new AbortController().signal,
    ...over,
  };
}

describe('NodeJsEngine', () => {
  it('copies the tree (links followed, node_modules and .git left out) and runs node in the matching directory', async () => {
    const fs = fsWith({
      'src/lib.mjs': 'export const v = 42;\n',
      'src/main.mjs':
        "import { v } from './lib.mjs';\nimport { readdirSync, existsSync } from 'node:fs';\nconsole.log(v, process.cwd().endsWith('/src'), readdirSync('..').sort().join(','), existsSync('../node_modules'), existsSync('../.git'));\n",
      'node_modules/x/index.js': '',
      '.git/HEAD': 'ref: refs/heads/main\n',
      'data.txt': 'd',
    });
    await fs.symlink('/ws/data.txt', '/ws/link.txt');
    const r = await new NodeJsEngine().run(request(fs, ['main.mjs'], { cwd: '/ws/src' }));
    expect(r.output).toBe('42 true data.txt,link.txt,src false false\n');
    expect(r.exitCode).toBe(0);
    expect(r.backendNote).toMatch(
      /^node ran in Node v\d+\.\d+\.\d+ on this machine, over a temporary copy of the workspace \(files it writes are not kept\)$/,
    );
  });

  it('shows the temporary paths as workspace paths and keeps no files the program writes', async () => {
    const fs = fsWith({
      'w.mjs':
        "import { writeFileSync } from 'node:fs';\nwriteFileSync('out.txt', 'x');\nconsole.log(process.cwd());\nthrow new Error('at ' + import.meta.url);\n",
    });
    const r = await new NodeJsEngine().run(request(fs, ['w.mjs']));
    const [cwdLine] = r.output.split('\n');
    expect(cwdLine).toBe('/ws');
    expect(r.output).toContain('Error: at file:///ws/w.mjs');
    expect(r.exitCode).toBe(1);
    expect(await fs.exists('/ws/out.txt')).toBe(false);
    expect(r.output).not.toMatch(/slm-node-/);
  });

  it("passes the shell's variables but not its own paths", async () => {
    const fs = fsWith({
      'e.js': "console.log(process.env.GREETING, process.env.HOME === '/ws', process.env.PWD === '/ws');\n",
    });
    const r = await new NodeJsEngine().run(request(fs, ['e.js'], { env: { GREETING: 'hi', HOME: '/ws', PWD: '/ws' } }));
    expect(r.output).toBe('hi false false\n');
  });

  it('a timeout kills the process group and is reported as a timeout', async () => {
    const fs = fsWith({ 's.js': 'for (;;) {}\n' });
    const r = await new NodeJsEngine().run(request(fs, ['s.js'], { timeoutMs: 400 }));
    expect(r).toMatchObject({ exitCode: null, timedOut: true });
    expect(r.backendNote).toMatch(/killed after 400 ms/);
  });

  it.skipIf(!sandbox)(
    'in the bubblewrap sandbox: the same program runs, with no network and nothing writable but the copy',
    async () => {
      const fs = fsWith({
        'p.mjs':
          "import { writeFileSync } from 'node:fs';\nimport { connect } from 'node:net';\n" +
          "for (const f of ['/usr/x', '/root/x']) { try { writeFileSync(f, 'x'); console.log('wrote', f); } catch (e) { console.log(e.code); } }\n" +
          "connect(80, '1.1.1.1').on('error', (e) => console.log(e.code)).on('connect', () => console.log('connected'));\n",
      });
      const r = await new NodeJsEngine(sandbox).run(request(fs, ['p.mjs']));
      // /root exists (read-only) only when the host's Python is installed under it (pyenv): either way nothing is written.
      expect(r.output).toMatch(/^EROFS\nE(?:NOENT|ROFS)\nENETUNREACH\n$/);
      expect(r.exitCode).toBe(0);
      expect(r.backendNote).toMatch(
        /^node ran in Node v[\d.]+ on this machine inside the bubblewrap sandbox \(no network, only the copy writable\), over a temporary copy/,
      );
    },
  );

  it('where the sandbox cannot run, runs nothing and says why', async () => {
    const fs = fsWith({
      'w.mjs': "import { writeFileSync } from 'node:fs';\nwriteFileSync('/tmp/slm-refused-' + process.pid, 'x');\n",
    });
    const refused = commandsRefused('bwrap is not installed (no bwrap on PATH)');
    const r = await new NodeJsEngine(refused).run(request(fs, ['w.mjs']));
    expect(r).toMatchObject({ exitCode: 126, output: '', backendNote: refused.note });
  });
});
