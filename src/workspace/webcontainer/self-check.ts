/**
 * A workspace self-check that runs in a browser page: the Workspace contract's core rules
 * (bytes, listing order, lstat sizes, rename, remove, error codes) and the exec bounds (exit
 * codes, the output cap, the timeout kill, `bash -c` for pipelines, `node --check`), each a
 * row that passes or says what it got. The vitest contract suite cannot run in the page, and
 * WebContainer cannot run anywhere else, so this is how WebContainer is held to the same rules
 * (the check page runs it; e2e/webcontainer.spec.ts runs it when online). The unit tests run
 * it against the memory, Node and stand-in WebContainer backends, so a failing row online is
 * WebContainer differing, not the check being wrong.
 */
import { decodeText, encodeText } from '../../engine/text.ts';
import {
  isWorkspaceError,
  singleCommand,
  type ExecOptions,
  type Workspace,
  type WorkspaceErrorCode,
} from '../../engine/workspace.ts';
import { createNodeSyntaxCheck } from './node-syntax-check.ts';

export interface CheckRow {
  readonly name: string;
  readonly ok: boolean;
  /** What went wrong, or a short fact about the pass (e.g. how long it took). */
  readonly detail: string;
  readonly ms: number;
}

export interface SelfCheckOptions {
  /** Run the exec rows, which need `node` (and `bash` for the pipeline row) in the workspace. */
  readonly exec: boolean;
}

/** Where the check writes; removed at the end. */
export const CHECK_DIR = 'slm-self-check';

type Check = (ws: Workspace, at: (p: string) => string) => Promise<string | void>;

class Mismatch extends Error {}

function same(what: string, got: unknown, want: unknown): void {
  const g = JSON.stringify(got);
  const w = JSON.stringify(want);
  if (g !== w) throw new Mismatch(`${what}: got ${g}, want ${w}`);
}

async function codeOf(p: Promise<unknown>): Promise<WorkspaceErrorCode | 'no error'> {
  try {
    await p;
    return 'no error';
  } catch (e) {
    if (isWorkspaceError(e)) return e.code;
    throw e;
  }
}

const FS_CHECKS: readonly (readonly [string, Check])[] = [
  [
    'bytes round-trip unchanged, parents created',
    async (ws, at) => {
      const data = Uint8Array.from({ length: 512 }, (_, i) => i % 256);
      await ws.writeFile(at('bin/x/blob.dat'), data);
      same('bytes', Array.from(await ws.readFile(at('bin/x/blob.dat'))), Array.from(data));
    },
  ],
  [
    'readdir sorts by code unit and gives types',
    async (ws, at) => {
      for (const n of ['b', 'B', 'a', '_', '10', '9']) await ws.writeFile(at(`sorted/${n}`), encodeText(n));
      await ws.mkdir(at('sorted/dir'));
      same('entries', await ws.readdir(at('sorted')), [
        ...['10', '9', 'B', '_', 'a', 'b'].map((name) => ({ name, type: 'file' })),
        { name: 'dir', type: 'dir' },
      ]);
    },
  ],
  [
    'lstat: byte sizes, 0 for directories, null when missing or under a file',
    async (ws, at) => {
      await ws.writeFile(at('utf8.txt'), encodeText('é€'));
      // mtimeMs is optional (a backend that knows it says it): the row checks type and size.
      const kind = async (p: string) => {
        const st = await ws.lstat(at(p));
        return st && { type: st.type, size: st.size };
      };
      same('file', await kind('utf8.txt'), { type: 'file', size: 5 });
      same('dir', await kind('bin'), { type: 'dir', size: 0 });
      same('missing', await ws.lstat(at('missing/deeper')), null);
      same('under a file', await ws.lstat(at('utf8.txt/x')), null);
    },
  ],
  [
    'rename moves a tree and refuses an existing destination',
    async (ws, at) => {
      await ws.rename(at('sorted'), at('moved/sorted'));
      same('moved', decodeText(await ws.readFile(at('moved/sorted/a'))), 'a');
      same('onto a file', await codeOf(ws.rename(at('moved/sorted/a'), at('utf8.txt'))), 'EEXIST');
    },
  ],
  [
    'remove takes a whole tree',
    async (ws, at) => {
      await ws.remove(at('moved'));
      same('after', await ws.lstat(at('moved/sorted/a')), null);
    },
  ],
  [
    'errors carry Node-style codes',
    async (ws, at) => {
      same('readFile missing', await codeOf(ws.readFile(at('missing.txt'))), 'ENOENT');
      same('readFile of a directory', await codeOf(ws.readFile(at('bin'))), 'EISDIR');
      same('readFile under a file', await codeOf(ws.readFile(at('utf8.txt/x'))), 'ENOTDIR');
      same('mkdir where a file is', await codeOf(ws.mkdir(at('utf8.txt'))), 'ENOTDIR');
      same('readdir of a file', await codeOf(ws.readdir(at('utf8.txt'))), 'ENOTDIR');
      same('remove of the root', await codeOf(ws.remove('')), 'EINVAL');
    },
  ],
];

const base: ExecOptions = { timeoutMs: 30_000, maxOutputBytes: 64 * 1024 };

const EXEC_CHECKS: readonly (readonly [string, Check])[] = [
  [
    'node runs: output and exit code',
    async (ws) => {
      const r = await ws.exec(
        singleCommand(['node', '-e', 'process.stdout.write("ok " + process.version); process.exit(3)']),
        base,
      );
      same('exit code', r.exitCode, 3);
      if (!/^ok v\d+/.test(r.output)) throw new Mismatch(`output: got ${JSON.stringify(r.output)}`);
      return r.output.slice(3);
    },
  ],
  [
    'output is capped while running, every byte counted',
    async (ws) => {
      const r = await ws.exec(singleCommand(['node', '-e', 'process.stdout.write("x".repeat(200000))']), {
        ...base,
        maxOutputBytes: 1000,
      });
      same('truncated, totalBytes', [r.truncated, r.totalBytes], [true, 200_000]);
      if (r.output.length > 1100) throw new Mismatch(`kept ${r.output.length} characters of a 1000-byte cap`);
    },
  ],
  [
    'a timeout kills the process',
    async (ws) => {
      const r = await ws.exec(singleCommand(['node', '-e', 'setInterval(() => {}, 1000)']), {
        ...base,
        timeoutMs: 1000,
      });
      same('exitCode, timedOut', [r.exitCode, r.timedOut], [null, true]);
    },
  ],
  [
    'a two-stage plan runs joined by a pipe, or is not run and says why',
    async (ws) => {
      const r = await ws.exec(
        {
          stages: [
            singleCommand(['echo', 'piped']).stages[0]!,
            { argv: ['cat'], stdin: 'pipe', stdout: 'next', stderr: 'output' },
          ],
        },
        base,
      );
      if (r.exitCode === 126 && /pipeline of 2/.test(r.backendNote ?? '')) return 'not run (one process per call)';
      same('exit code', r.exitCode, 0);
      same('output', r.output.replace(/\r\n/g, '\n'), 'piped\n');
      return 'ran piped';
    },
  ],
  [
    'node --check judges a broken file',
    async (ws, at) => {
      await ws.writeFile(at('broken.js'), encodeText('let x = {\n  a: 1,,\n};\n'));
      const verdict = await createNodeSyntaxCheck(ws)(at('broken.js'), 'let x = {\n  a: 1,,\n};\n');
      same('verdict', verdict, { status: 'error', checker: 'node --check', message: "2:8 Unexpected token ','" });
    },
  ],
];

/** Runs the checks in `CHECK_DIR` (removed afterwards, pass or fail); never rejects. */
export async function selfCheck(ws: Workspace, opts: SelfCheckOptions): Promise<CheckRow[]> {
  const at = (p: string): string => `${CHECK_DIR}/${p}`;
  const rows: CheckRow[] = [];
  const run = async (name: string, check: () => Promise<string | void>): Promise<void> => {
    const start = performance.now();
    try {
      const fact = await check();
      rows.push({ name, ok: true, detail: fact ?? '', ms: Math.round(performance.now() - start) });
    } catch (e) {
      const detail =
        e instanceof Mismatch ? e.message : `threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
      rows.push({ name, ok: false, detail, ms: Math.round(performance.now() - start) });
    }
  };
  await run(`start from an empty ${CHECK_DIR}/`, () => removeIfThere(ws, CHECK_DIR));
  for (const [name, check] of opts.exec ? [...FS_CHECKS, ...EXEC_CHECKS] : FS_CHECKS)
    await run(name, () => check(ws, at));
  await run(`clean up ${CHECK_DIR}/`, () => removeIfThere(ws, CHECK_DIR));
  return rows;
}

async function removeIfThere(ws: Workspace, path: string): Promise<void> {
  try {
    await ws.remove(path);
  } catch (e) {
    if (!isWorkspaceError(e, 'ENOENT')) throw e;
  }
}
