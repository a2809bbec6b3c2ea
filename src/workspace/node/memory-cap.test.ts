/**
 * The memory cap of one command's processes together: the probe reads cgroup layouts from a
 * made-up tree; on a host where a cgroup can be made, real processes are held to the cap.
 * The real-process tests are skipped, with the reason printed, where no cgroup can be made.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ownCgroups, probeMemoryCap, type MemoryCap, type MemoryCapGroup } from './memory-cap.ts';

const fakes: string[] = [];
afterAll(() => {
  for (const dir of fakes) rmSync(dir, { recursive: true, force: true });
});

/** A made-up /sys/fs/cgroup with the given files. */
function fakeTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'slm-cgroup-'));
  fakes.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('which cgroup this process is in', () => {
  it.each([
    ['v1 lines, one controller each', '4:memory:/a/b\n3:pids:/\n0::/', 'memory', '/a/b'],
    ['v1 lines with joined controllers', '2:cpu,cpuacct:/x\n', 'cpuacct', '/x'],
    ['the v2 line', '0::/user.slice/app.scope\n', '', '/user.slice/app.scope'],
    ['a named hierarchy', '9:name=systemd:/s\n', 'name=systemd', '/s'],
  ])('%s', (_what, text, controller, path) => {
    expect(ownCgroups(text).get(controller)).toBe(path);
  });
});

describe('the probe, on made-up cgroup trees', () => {
  it('v1: a memory hierarchy this process may write makes a v1 cap and a group it can remove again', () => {
    const root = fakeTree({ 'memory/cgroup.procs': '', 'memory/job/cgroup.procs': '' });
    const cap = probeMemoryCap(1024, root, '4:memory:/job\n0::/');
    expect('layout' in cap && cap.layout).toBe('v1');
  });

  it('v2 without the memory controller delegated: unavailable, saying how to start slm so it is', () => {
    const root = fakeTree({
      'cgroup.controllers': 'cpu memory pids',
      'user.slice/app.scope/cgroup.subtree_control': '',
    });
    const cap = probeMemoryCap(1024, root, '0::/user.slice/app.scope\n');
    expect('unavailable' in cap && cap.unavailable).toMatch(
      /does not delegate the memory controller.*systemd-run --user --scope -p MemoryMax=/,
    );
  });

  it('v2 with the memory controller delegated: a v2 cap', () => {
    const root = fakeTree({ 'cgroup.controllers': 'memory', 'svc/cgroup.subtree_control': 'cpu memory' });
    const cap = probeMemoryCap(1024, root, '0::/svc\n');
    expect('layout' in cap && cap.layout).toBe('v2');
  });

  it('no memory controller at all: unavailable, per-process bounds only', () => {
    const cap = probeMemoryCap(1024, fakeTree({ 'unrelated/file': '' }), '1:cpu:/\n');
    expect('unavailable' in cap && cap.unavailable).toMatch(/no cgroup memory controller.*one by one/);
  });

  it('a group that cannot be made (the parent is missing): unavailable, with the error', () => {
    const root = fakeTree({ 'memory/cgroup.procs': '' });
    const cap = probeMemoryCap(1024, root, '4:memory:/gone/deeper\n');
    expect('unavailable' in cap && cap.unavailable).toMatch(/could not be made under .*gone\/deeper/);
  });
});

const host = probeMemoryCap(200 * 1024 ** 2);
const real: MemoryCap | null = 'layout' in host ? host : null;
if (!real) console.log(`memory-cap process tests skipped: ${'unavailable' in host ? host.unavailable : ''}`);

/** Runs node allocating `mb` MiB in 10 MiB steps inside `group`; its exit signal and output. */
function allocate(group: MemoryCapGroup, mb: number): Promise<{ signal: NodeJS.Signals | null; out: string }> {
  const script = `const a = []; for (let i = 0; i < ${mb / 10}; i++) a.push(Buffer.alloc(10 * 1024 * 1024, 1)); setTimeout(() => console.log('held ${mb}'), 300);`;
  const { file, args } = group.enter(process.execPath, ['-e', script]);
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('close', (_code, signal) => resolve({ signal, out })));
}

describe.skipIf(!real)('a real cgroup holds a command to the cap (200 MiB)', () => {
  it('one process under the cap runs to its end', async () => {
    const group = real!.open();
    try {
      expect(await allocate(group, 60)).toEqual({ signal: null, out: 'held 60\n' });
      expect(group.oomKills()).toBe(0);
    } finally {
      group.close();
    }
  });

  it('one process past the cap is killed, and the kill is counted', async () => {
    const group = real!.open();
    try {
      const r = await allocate(group, 400);
      expect(r.signal).toBe('SIGKILL');
      expect(group.oomKills()).toBeGreaterThan(0);
    } finally {
      group.close();
    }
  });

  it('two processes each under the cap, together past it: the sum is what is bounded', async () => {
    const group = real!.open();
    try {
      const both = await Promise.all([allocate(group, 150), allocate(group, 150)]);
      expect(both.some((r) => r.signal === 'SIGKILL')).toBe(true);
      expect(group.oomKills()).toBeGreaterThan(0);
    } finally {
      group.close();
    }
  });
});
