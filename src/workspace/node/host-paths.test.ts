/**
 * What a command inside bubblewrap learns of the host from /proc: bwrap reads its options from a
 * descriptor, so /proc/1/cmdline (bwrap is the PID namespace's first process) names none of the
 * mounts' host paths, and the workspace is mounted at /ws, so neither /proc/self/mounts nor
 * mountinfo's mount points name its directory. A real probe, skipped with the reason printed
 * where bwrap cannot run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hostPython } from './host-python.ts';
import { closeSandboxFds, probeHostSandbox, sandboxStdio, type HostSandbox } from './host-sandbox.ts';

const probed = await probeHostSandbox();
const sandbox: HostSandbox | undefined = 'kind' in probed ? probed : undefined;
if (!sandbox)
  console.log(`host-paths tests skipped: bubblewrap cannot run here (${'why' in probed ? probed.why : ''})`);

const root = realpathSync(mkdtempSync(join(tmpdir(), 'slm-host-paths-ws-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** `file` inside the sandbox, NULs shown as spaces. */
function readInside(file: string): string {
  const w = sandbox!.wrap(['sh', '-c', `tr '\\0' ' ' < ${file}`], { root, cwd: root, env: {} });
  try {
    const r = spawnSync(w.file, w.args, {
      env: w.env,
      encoding: 'utf8',
      stdio: sandboxStdio('ignore', 'pipe', 'pipe', w) as ('ignore' | 'pipe' | number)[],
    });
    expect(r.status, r.stderr).toBe(0);
    return r.stdout;
  } finally {
    closeSandboxFds(w);
  }
}

/** Installations the sandbox binds from outside the system directories: this Node's and the host's Python. */
const installs = [dirname(dirname(realpathSync(process.execPath))), ...(hostPython()?.prefixes ?? [])].filter(
  (p) => !/^\/(usr|bin|sbin|lib\w*)(\/|$)/.test(p),
);

describe.skipIf(!sandbox)('what /proc tells a sandboxed command of the host', () => {
  it('/proc/1/cmdline is bwrap reading its options from a descriptor: no workspace, toolchain or /etc host path', () => {
    const cmdline = readInside('/proc/1/cmdline');
    expect(cmdline).toMatch(/^\S*bwrap --args \d+ -- /);
    expect(cmdline).not.toContain(root);
    expect(cmdline).not.toContain('--bind');
    expect(cmdline).not.toContain('slm-sandbox-etc-');
    for (const p of installs) expect(cmdline).not.toContain(p);
  });

  it('/proc/self/mounts names the workspace only as /ws', () => {
    const mounts = readInside('/proc/self/mounts');
    expect(mounts).toMatch(/ \/ws /);
    expect(mounts).not.toContain(root);
  });

  it("/proc/self/mountinfo's mount points name the workspace only as /ws", () => {
    const points = readInside('/proc/self/mountinfo')
      .trim()
      .split('\n')
      .map((line) => line.split(' ')[4]);
    expect(points).toContain('/ws');
    for (const p of points) expect(p).not.toContain(root);
  });
});
