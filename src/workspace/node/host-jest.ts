/**
 * `jest`, `vitest` and `mocha` for the memory workspace on a Node host (the CLI's `slm eval`
 * and `slm replay`, tests). A project with its own runner installed in its node_modules runs
 * that runner, with real node. Any other project runs the browser sandbox's Jest-style runner
 * — the same file (node-shims/jest.js) and the same bundle of Jest's `expect`
 * (expect-bundle.ts, bundled on first use and kept for the process) — with real node, driven
 * by host-jest/driver.mjs: the spec files found as the sandbox finds them
 * (test-runner-args.ts), relative imports without an extension resolved as bundlers do
 * (host-jest/hooks.mjs, the sandbox's own list of candidates). The runner's files are written
 * into the temporary copy under RUNNER_DIR, read-only inside the OS sandbox, where no test
 * finder looks; the copy is run as every `node` of the memory workspace is (node-runner.ts).
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { InMemoryFs } from 'just-bash';
import { parseTestTally } from '../../engine/tally.ts';
import type { ExecResult } from '../../engine/workspace.ts';
import { bundleExpect } from '../memory/expect-bundle.ts';
import { BUNDLER_CANDIDATES } from '../memory/specifiers.ts';
import { planSpecs, type SpecRunner } from '../memory/test-runner-args.ts';

/** Where the runner's files go in the copy, relative to the workspace root (under .slmcode/, which no test finder walks). */
export const RUNNER_DIR = '.slmcode/host-jest';

/** What the Jest-style runner is, for the result's note. */
const RUNNER_NOTE =
  "describe/it/test with skip, only, each and the hooks, Jest's own expect, jest.fn — the browser sandbox's runner; not the project's Jest or Vitest";

/** What a spec-runner command becomes on the host. */
export type HostSpecPlan =
  /** Nothing to run: the runner's own message (an option it does not support, no spec files). */
  | { readonly mode: 'print'; readonly text: string; readonly exitCode: number }
  /** The project's own runner: `bin` relative to the working directory, node_modules copied too. */
  | { readonly mode: 'own'; readonly bin: string; readonly note: string }
  /**
   * The Jest-style runner: node's arguments (the driver relative to the working directory),
   * `files` written under RUNNER_DIR, and `key`, what node sends it on stdin (see `withRunnerTally`).
   */
  | {
      readonly mode: 'jest';
      readonly args: readonly string[];
      readonly files: Readonly<Record<string, string>>;
      readonly key: Uint8Array;
      readonly note: string;
    };

/** The file, in the copy's root (the one place the run may write), where the driver leaves its tally. */
const TALLY_FILE = '.slmcode-host-jest-tally';

let expectSource: Promise<string> | null = null;

/** The bundle of Jest's `expect`, built once per process (about half a second). */
function expectBundle(): Promise<string> {
  expectSource ??= bundleExpect().catch((e: unknown) => {
    expectSource = null;
    throw e;
  });
  return expectSource;
}

const shimUrl = (name: string) => new URL(name, import.meta.url);

/**
 * The runner installed in the project's node_modules for `program`, from the working directory
 * up to the workspace root: its package's `bin` entry, absolute in `fs`; null when there is none.
 */
export async function ownRunner(
  fs: InMemoryFs,
  root: string,
  cwd: string,
  program: SpecRunner,
): Promise<string | null> {
  for (let dir = cwd; dir === root || dir.startsWith(`${root}/`); dir = posix.dirname(dir)) {
    const pkgDir = `${dir}/node_modules/${program}`;
    try {
      const pkg = JSON.parse(await fs.readFile(`${pkgDir}/package.json`, 'utf8')) as { bin?: unknown };
      const bin = typeof pkg.bin === 'string' ? pkg.bin : (pkg.bin as Record<string, unknown> | undefined)?.[program];
      // A bin that leaves its package is not the package's runner.
      const file = typeof bin === 'string' ? posix.join(pkgDir, bin) : null;
      if (file?.startsWith(`${pkgDir}/`)) return file;
    } catch {
      // not installed here: look one directory up
    }
    if (dir === root) break;
  }
  return null;
}

/** What `program args` runs on the host for the memory workspace at `root` (`cwd` absolute in `fs`). */
export async function planHostSpecs(
  fs: InMemoryFs,
  root: string,
  cwd: string,
  program: SpecRunner,
  args: readonly string[],
  node: string,
): Promise<HostSpecPlan> {
  const own = await ownRunner(fs, root, cwd, program);
  if (own)
    return {
      mode: 'own',
      bin: posix.relative(cwd, own),
      note: `${program} ran as the project's own ${program} (${posix.relative(root, own)}) in Node ${node}`,
    };
  const plan = await planSpecs(fs, root, cwd, program, args);
  if (plan.mode === 'print') return plan;
  const [driver, hooks, runner, expect] = await Promise.all([
    readFile(shimUrl('./host-jest/driver.mjs'), 'utf8'),
    readFile(shimUrl('./host-jest/hooks.mjs'), 'utf8'),
    readFile(shimUrl('../memory/node-shims/jest.js'), 'utf8'),
    expectBundle(),
  ]);
  const job = {
    files: plan.files.map((f) => posix.relative(root, f)),
    namePatterns: plan.namePatterns,
    candidates: BUNDLER_CANDIDATES,
    tallyFile: TALLY_FILE,
  };
  return {
    mode: 'jest',
    // Node's notice that it parsed a file as an ES module is not the tests' output (Jest would not print it).
    args: ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', posix.relative(cwd, `${root}/${RUNNER_DIR}/driver.mjs`)],
    files: {
      [`${RUNNER_DIR}/driver.mjs`]: driver,
      [`${RUNNER_DIR}/hooks.mjs`]: hooks,
      [`${RUNNER_DIR}/jest.mjs`]: runner,
      [`${RUNNER_DIR}/expect.mjs`]: expect,
      [`${RUNNER_DIR}/job.json`]: JSON.stringify(job),
    },
    key: new TextEncoder().encode(randomBytes(16).toString('hex')),
    note: `${program} ran as the Jest-style runner in Node ${node} (${RUNNER_NOTE})`,
  };
}

/** Adds `text` as the last lines of the result's output. */
function told(r: ExecResult, text: string): ExecResult {
  return {
    ...r,
    output: `${r.output}${r.output && !r.output.endsWith('\n') ? '\n' : ''}${text}\n`,
    totalBytes: r.totalBytes + text.length + 2,
  };
}

/**
 * The Jest-style runner's result as the runner itself counted it, read from the tally file the
 * driver writes in the copy at `dir` (host-jest/driver.mjs): only a tally marked with `key` (sent
 * on its stdin, unreadable to specs) counts. Without one the run did not finish (a spec ended
 * the process) and fails; with one, its exit code is the result's, and when the output's last
 * summary says otherwise (a spec printed its own, or the output was cut), the runner's count is
 * added last.
 */
export async function withRunnerTally(dir: string, key: Uint8Array, r: ExecResult): Promise<ExecResult> {
  const text = await readFile(join(dir, TALLY_FILE), 'utf8').catch(() => '');
  const m = /^(\S+) (\d+) (\d+) ([01])\n$/.exec(text);
  if (!m || m[1] !== new TextDecoder().decode(key)) {
    if (r.timedOut) return r;
    return told(
      { ...r, exitCode: r.exitCode === 0 ? 1 : r.exitCode },
      'The Jest-style runner did not finish: the process ended before the runner counted the tests (a spec or a module it loads called process.reallyExit or process.kill, or the process was killed), so no summary above counts and the run failed. End tests by returning or throwing; set process.exitCode rather than ending the process.',
    );
  }
  const passed = Number(m[2]);
  const failed = Number(m[3]);
  const out = { ...r, exitCode: Number(m[4]) };
  const printed = parseTestTally(r.output, 'jest');
  // No summary with a count (no test ran) reads as 0 and 0, as the runner counted it.
  if ((printed?.passed ?? 0) === passed && (printed?.failed ?? 0) === failed) return out;
  return told(
    out,
    `The output above does not end with the runner's count (a spec printed a summary of its own, or the output was cut); the runner counted:\nTests:       ${failed} failed, ${passed} passed`,
  );
}
