/**
 * The builtin suite's contract: every task is well formed, and its hidden grader fails on the
 * untouched starting workspace and passes on the reference solution kept beside it. Graders run
 * as `slm eval` runs them: in a memory workspace whose node runs inside the OS sandbox.
 */
import { describe, expect, it } from 'vitest';
import { grade } from '../../src/eval/grade.ts';
import { solvedFiles, taskSchema, TASK_MECHANISMS } from '../../src/eval/task.ts';
import { BUILTIN_TASKS } from '../../src/eval/tasks/index.ts';
import { sandboxedMemoryWorkspaces } from '../../src/cli/eval-workspace.ts';
import { probeHostSandbox } from '../../src/workspace/node/host-sandbox.ts';
import { useNodeWasm } from '../support/node-wasm.ts';

useNodeWasm();
const sandbox = await probeHostSandbox();
const open = 'kind' in sandbox ? sandboxedMemoryWorkspaces(sandbox) : undefined;

describe('the builtin suite', () => {
  it('has at least 24 tasks with unique ids, each valid against the task schema', () => {
    expect(BUILTIN_TASKS.length).toBeGreaterThanOrEqual(24);
    expect(new Set(BUILTIN_TASKS.map((t) => t.id)).size).toBe(BUILTIN_TASKS.length);
    for (const t of BUILTIN_TASKS) expect(taskSchema.safeParse(t).error?.issues, t.id).toBeUndefined();
  });

  it('exercises every mechanism tag with at least one task', () => {
    const used = new Set(BUILTIN_TASKS.flatMap((t) => t.mechanisms));
    expect(TASK_MECHANISMS.filter((m) => !used.has(m))).toEqual([]);
  });

  it("runs in the browser's sandbox too: no task's code, tests or grader reads node:fs or imports dynamically", () => {
    for (const t of BUILTIN_TASKS) {
      for (const [path, text] of Object.entries({
        ...t.files,
        ...t.grader,
        ...Object.fromEntries(Object.entries(t.solution).filter(([, v]) => v !== null)),
      })) {
        expect(text, `${t.id}: ${path}`).not.toMatch(/from 'node:(?!test'|assert)|\bimport\(/);
      }
    }
  });

  it('has a visible test script in every project, and no grader file in the starting workspace', () => {
    for (const t of BUILTIN_TASKS) {
      expect(JSON.parse(t.files['package.json']!).scripts.test, t.id).toBe('node --test');
      expect(
        Object.keys(t.files).filter((p) => p.startsWith('eval-grader/')),
        t.id,
      ).toEqual([]);
    }
  });
});

describe.skipIf(!open)('every grader, in the OS sandbox', () => {
  it.each(BUILTIN_TASKS.map((t) => [t.id, t] as const))(
    '%s: fails on the start, passes on the reference solution',
    async (_id, task) => {
      const untouched = await grade(task, task.files, open!);
      expect(untouched.passed, untouched.excerpt).toBe(false);
      const solved = await grade(task, solvedFiles(task), open!);
      expect(solved.passed, solved.excerpt).toBe(true);
      expect(solved.tally.failed).toBe(0);
    },
  );
});
