/**
 * The bubblewrap sandbox, spawned the way the Node executor spawns a stage (`detached`, the
 * wrapper's file, args and env): what a command inside cannot reach — files outside through a
 * link, writes outside or into .git/.slmcode, a loopback listener, surviving a kill of its
 * process group, more processes or memory than the limits — and the everyday commands that
 * still work. Skipped, with the reason printed, only where bwrap cannot run.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nestedGitEntries } from './git-entries.ts';
import { hostPython } from './host-python.ts';
import { WORKSPACE_PATH } from '../../engine/workspace.ts';
import {
  closeSandboxFds,
  commandsRefused,
  LIMITS,
  sandboxStdio,
  probeHostSandbox,
  SHM_BYTES,
  TMP_BYTES,
  UNSANDBOXED,
  type HostSandbox,
} from './host-sandbox.ts';

const probed = await probeHostSandbox();
const sandbox: HostSandbox | undefined = 'kind' in probed ? probed : undefined;
if (!sandbox)
  console.log(`host-sandbox tests skipped: bubblewrap cannot run here (${'why' in probed ? probed.why : ''})`);

interface Ran {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly out: string;
  readonly pid: number;
}

let root: string;
let outside: string;

/** Spawns `argv` through the sandbox as the executor does; `started` sees the child before it ends. */
function run(
  argv: readonly string[],
  opts: { cwd?: string; env?: Record<string, string>; started?: (pid: number) => void } = {},
): Promise<Ran> {
  const w = sandbox!.wrap(argv, { root, cwd: opts.cwd ?? root, env: opts.env ?? {} });
  const child = spawn(w.file, w.args, {
    env: w.env,
    cwd: root,
    stdio: sandboxStdio('ignore', 'pipe', 'pipe', w),
    detached: true,
  });
  closeSandboxFds(w);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  opts.started?.(child.pid!);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, out, pid: child.pid! }));
  });
}

const sh = (script: string, opts?: Parameters<typeof run>[1]) => run(['sh', '-c', script], opts);

/** Waits for `check` to hold, polling; fails after `ms`. Never asserts on how long it took. */
async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  for (const end = Date.now() + ms; !check();) {
    if (Date.now() > end) throw new Error(`still not true after ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Host processes whose command line contains `token`. */
function processesWith(token: string): string[] {
  const ps = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' });
  return ps.split('\n').filter((l) => l.includes(token) && !l.includes('ps -eo'));
}

beforeAll(async () => {
  if (!sandbox) return;
  root = await realpath(await mkdtemp(join(tmpdir(), 'slm-sandbox-ws-')));
  outside = await realpath(await mkdtemp(join(tmpdir(), 'slm-sandbox-outside-')));
  await writeFile(join(outside, 'secret.txt'), 'the secret outside\n');
  await symlink(join(outside, 'secret.txt'), join(root, 'link'));
  await writeFile(join(root, 'notes.txt'), 'alpha\nbeta\ngamma\n');
  // The project in its own folder: node --test stops at the dangling link the root holds inside the sandbox.
  await mkdir(join(root, 'proj/test'), { recursive: true });
  await writeFile(
    join(root, 'proj/package.json'),
    '{"name":"tiny","type":"module","scripts":{"test":"node --test"}}\n',
  );
  await writeFile(
    join(root, 'proj/test/add.test.js'),
    "import test from 'node:test';\nimport assert from 'node:assert';\ntest('adds', () => assert.equal(1 + 1, 2));\n",
  );
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'start');
  await mkdir(join(root, '.slmcode/scratch'), { recursive: true });
  // Repositories inside the workspace: a nested one, one deeper down, one in scratch, and a submodule's `.git` file.
  for (const dir of ['sub', 'deep/er/still', '.slmcode/scratch/repo'])
    execFileSync('git', ['init', '-q', dir], { cwd: root, stdio: 'ignore' });
  await mkdir(join(root, 'mod'), { recursive: true });
  await writeFile(join(root, 'mod/.git'), 'gitdir: ../.git/modules/mod\n');
  await writeFile(join(root, '.git/info/exclude'), '/sub/\n/deep/\n/mod/\n/.slmcode/\n');
});

afterAll(async () => {
  if (!sandbox) return;
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe.skipIf(!sandbox)('the bubblewrap sandbox: what a command cannot reach', () => {
  it('reads nothing outside through a symlink in the workspace', async () => {
    const r = await run(['cat', 'link']);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/No such file or directory/);
    expect(r.out).not.toContain('the secret outside');
  });

  it('sees none of the host beyond the toolchain: no /root, /home, /work or other temp directories', async () => {
    // A Python installed under /root (pyenv) is bound at its own path: then /root holds that path and nothing else.
    const installs = (hostPython()?.prefixes ?? []).filter((p) => p.startsWith('/root/'));
    const r = await sh(
      `for p in ${installs.length ? '' : '/root'} /home /work ${outside} /etc/shadow /etc/ssh; do [ -e "$p" ] && echo "visible: $p"; done; ls /`,
    );
    expect(r.out).not.toMatch(/visible:/);
    expect(r.out.trim().split('\n').sort()).toEqual(expect.arrayContaining(['dev', 'etc', 'proc', 'tmp', 'usr']));
    if (installs.length) {
      const seen = await sh('find /root -mindepth 1 -maxdepth 4');
      const allowed = (p: string) => installs.some((i) => i === p || i.startsWith(`${p}/`) || p.startsWith(`${i}/`));
      expect(
        seen.out
          .trim()
          .split('\n')
          .filter((p) => !allowed(p)),
      ).toEqual([]);
    }
  });

  // Each row: what is written → it fails inside, and the host never sees the file.
  const writes: [string, string, () => string][] = [
    ['a directory outside the workspace', 'touch "$1/x"', () => join(outside, 'x')],
    ['/work', 'touch /work/x', () => '/work/x'],
    ['the toolchain', 'touch /usr/x', () => '/usr/x'],
    ["the sandbox's own root (a tmpfs without a size)", 'touch /x && mkdir /y', () => '/x'],
    ['.git/', 'touch .git/x', () => join(root, '.git/x')],
    ['.git/config', 'echo "[core] fsmonitor = evil" >> .git/config', () => join(root, '.git/config.never')],
    ['.slmcode/', 'touch .slmcode/hooks.json', () => join(root, '.slmcode/hooks.json')],
    ["a nested repository's .git/", 'touch sub/.git/x', () => join(root, 'sub/.git/x')],
    [
      "a nested repository's .git/config",
      'echo "[core] fsmonitor = evil" >> sub/.git/config && touch sub/.git/config.never',
      () => join(root, 'sub/.git/config.never'),
    ],
    [
      "a nested repository's hooks, three levels down",
      'touch deep/er/still/.git/hooks/pre-commit',
      () => join(root, 'deep/er/still/.git/hooks/pre-commit'),
    ],
    [
      "a repository's .git/ inside .slmcode/scratch/",
      'touch .slmcode/scratch/repo/.git/x',
      () => join(root, '.slmcode/scratch/repo/.git/x'),
    ],
    [
      "a submodule's .git file",
      'echo "gitdir: ../evil" > mod/.git && touch mod/.git.never',
      () => join(root, 'mod/.git.never'),
    ],
  ];
  it.each(writes)('cannot write into %s', async (_what, script, hostPath) => {
    const r = await run(['sh', '-c', script, 'sh', outside]);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/Read-only file system|No such file or directory|Permission denied/);
    expect(existsSync(hostPath())).toBe(false);
  });

  it.each(['.git/config', 'sub/.git/config', 'mod/.git'])('leaves %s as it was', async (file) => {
    const before = await readFile(join(root, file), 'utf8');
    await run(['sh', '-c', 'echo "[core] fsmonitor = evil" >> "$1"', 'sh', file]);
    expect(await readFile(join(root, file), 'utf8')).toBe(before);
  });

  it("keeps a nested repository's work tree writable", async () => {
    const r = await sh('echo made > sub/made.txt && cat sub/made.txt');
    expect(r).toMatchObject({ code: 0, out: 'made\n' });
    await rm(join(root, 'sub/made.txt'));
  });

  it('has a /tmp of its own: what it writes there is not on the host and is gone next time', async () => {
    const name = `slm-private-${process.pid}`;
    const r = await sh(`echo x > /tmp/${name} && cat /tmp/${name}`);
    expect(r).toMatchObject({ code: 0, out: 'x\n' });
    expect(existsSync(join('/tmp', name))).toBe(false);
    expect((await sh(`cat /tmp/${name}`)).code).not.toBe(0);
  });

  it.each([
    ['/tmp', TMP_BYTES],
    ['/dev/shm', SHM_BYTES],
  ])('holds what is written into %s to its size (memory the rlimits do not count)', async (dir, bytes) => {
    const mib = bytes / 1024 ** 2;
    const r = await sh(
      `head -c ${(mib + 16) * 1024 * 1024} /dev/zero > ${dir}/fill; echo "exit $?"; du -m ${dir}/fill`,
    );
    expect(r.out).toMatch(/No space left on device/);
    const [, held] = /^(\d+)\s/m.exec(r.out.split('\n').find((l) => l.includes('fill') && /^\d/.test(l)) ?? '') ?? [];
    expect(Number(held)).toBeLessThanOrEqual(mib);
  });

  it('reaches no loopback listener of the host, and the listener sees nothing', async () => {
    let connections = 0;
    const server: Server = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const probe = `require('net').connect(${port}, '127.0.0.1').on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(3); })`;
      const r = await run(['node', '-e', probe]);
      expect(r.out.trim()).toBe('ECONNREFUSED');
      expect(r.code).toBe(3);
      expect(connections).toBe(0);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('leaves no process behind when its process group is killed: a setsid child goes with it', async () => {
    const token = `slm-setsid-${process.pid}`;
    // The detached child writes `started`, then would write `marker` after 2 s: it must never get there.
    const script = `setsid sh -c 'touch started; sleep 2; touch marker # ${token}' & sleep 60 # ${token}`;
    let pid = 0;
    const ran = sh(script, { started: (p) => (pid = p) });
    await until(() => existsSync(join(root, 'started')), 10_000, 'the setsid child started');
    expect(processesWith(token).length).toBeGreaterThan(0);
    process.kill(-pid, 'SIGKILL');
    const r = await ran;
    expect(r.signal).toBe('SIGKILL');
    await until(() => processesWith(token).length === 0, 10_000, `no process with ${token} is left`);
    // Past the moment the setsid child would have written its marker.
    await new Promise((res) => setTimeout(res, 2500));
    expect(existsSync(join(root, 'marker'))).toBe(false);
    await rm(join(root, 'started'));
  });

  it('runs under the limits it claims', async () => {
    const r = await run(['cat', '/proc/self/limits']);
    // Each row: the line in /proc/self/limits → the value set (soft and hard alike).
    const rows: [string, number | string][] = [
      ['Max processes', LIMITS.processes],
      ['Max data size', LIMITS.dataBytes],
      ['Max address space', 'unlimited'],
      ['Max file size', LIMITS.fileBytes],
      ['Max core file size', LIMITS.coreBytes],
    ];
    for (const [name, value] of rows)
      expect(r.out, name).toMatch(new RegExp(`^${name}\\s+${value}\\s+${value}\\s`, 'm'));
  });

  it('stops a fork bomb at the process limit: it ends by itself, never above the limit', async () => {
    // The limit lowered to 64 for this test: as root every sandbox shares one count, and other tests run beside it.
    const limit = 64;
    const token = `slm-bomb-${process.pid}`;
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, processesWith(token).length)), 100);
    let pid = 0;
    const ran = run(
      ['prlimit', `--nproc=${limit}:${limit}`, '--', 'bash', '-c', `b() { b | b & }; b; wait # ${token}`],
      { started: (p) => (pid = p) },
    );
    // Without the limit the bomb never ends: kill it then, and the peak tells.
    const safety = setTimeout(() => process.kill(-pid, 'SIGKILL'), 60_000);
    const r = await ran.finally(() => {
      clearInterval(sampler);
      clearTimeout(safety);
    });
    expect(r.signal).toBeNull();
    expect(r.out).toMatch(/fork: (retry: )?Resource temporarily unavailable/);
    // The bomb's processes, plus the two bwrap processes outside the count whose arguments name the token too.
    expect(peak).toBeLessThanOrEqual(limit + 2);
    expect(processesWith(token)).toEqual([]);
  });

  it('stops a memory hog at the writable-memory limit', async () => {
    // allocUnsafeSlow leaves the pages untouched: RLIMIT_DATA counts writable mappings, filled or not.
    const hog = `const a = []; try { for (;;) a.push(Buffer.allocUnsafeSlow(64 << 20)); } catch (e) { console.log(e.message, a.length * 64); }`;
    const r = await run(['node', '-e', hog]);
    const [, mib] = /Array buffer allocation failed (\d+)/.exec(r.out) ?? [];
    expect(Number(mib)).toBeGreaterThan(0);
    expect(Number(mib) * 1024 ** 2).toBeLessThan(LIMITS.dataBytes);
  });

  // Python 3.11 has no os.unshare: the system calls are made through ctypes, numbers for x86_64.
  const py = (body: string) => [
    'python3',
    '-c',
    `import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n${body}`,
  ];
  const NEWUSER = 0x10000000;
  const SIGCHLD = 17;
  it.each([
    ['unshare -U', ['unshare', '-U', 'true'], /Operation not permitted/],
    ['unshare -U --fork', ['unshare', '--user', '--fork', 'true'], /Operation not permitted/],
    [
      'unshare(CLONE_NEWUSER)',
      py(`print('unshare', libc.unshare(${NEWUSER}), ctypes.get_errno())`),
      /^unshare -1 1$/m, // EPERM
    ],
    [
      'clone(CLONE_NEWUSER)',
      py(
        `r = libc.syscall(56, ${NEWUSER | SIGCHLD}, 0, 0, 0, 0)\nif r == 0: os._exit(0)\nprint('clone', r, ctypes.get_errno())`,
      ),
      /^clone -1 1$/m, // EPERM
    ],
    [
      'clone3, whose flags a filter cannot read',
      py(
        `args = (ctypes.c_uint64 * 11)(${NEWUSER}, 0, 0, 0, ${SIGCHLD})\nr = libc.syscall(435, args, 88)\nif r == 0: os._exit(0)\nprint('clone3', r, ctypes.get_errno())`,
      ),
      /^clone3 -1 38$/m, // ENOSYS: glibc then falls back to clone
    ],
  ] as const)('cannot make a nested user namespace: %s fails', async (_name, argv, expected) => {
    if (process.arch !== 'x64') return console.log(`skipped: the system call numbers are x86_64's (${process.arch})`);
    const r = await run(argv);
    expect(r.out).toMatch(expected);
  });

  it('still forks, starts threads and child processes (clone without CLONE_NEWUSER)', async () => {
    if (process.arch !== 'x64') return console.log(`skipped: the system call numbers are x86_64's (${process.arch})`);
    const fork = await run(
      py(
        `r = libc.syscall(56, ${SIGCHLD}, 0, 0, 0, 0)\nif r == 0: os._exit(7)\nprint('child', os.waitpid(r, 0)[1] >> 8)`,
      ),
    );
    expect(fork.out).toMatch(/^child 7$/m);
    const node = await run([
      'node',
      '-e',
      "const { Worker } = require('worker_threads'); new Worker('require(\"worker_threads\").parentPort.postMessage(6 * 7)', { eval: true }).on('message', (m) => console.log('worker', m, require('child_process').execFileSync('echo', ['child']).toString().trim()))",
    ]);
    expect(node.out).toContain('worker 42 child');
  });

  it('runs WebAssembly: V8 reserves its memories far past any address-space cap, so none is set', async () => {
    // The smallest module that exports a memory, instantiated, then grown to 64 MiB.
    const wasm = `const bytes = new Uint8Array([0,97,115,109,1,0,0,0,5,3,1,0,1,7,7,1,3,109,101,109,2,0]);
      WebAssembly.instantiate(bytes).then(({ instance }) => { instance.exports.mem.grow(1023); console.log('wasm', instance.exports.mem.buffer.byteLength >> 20); });`;
    const r = await run(['node', '-e', wasm]);
    expect(r.out).toBe('wasm 64\n');
  });

  it('has a clean environment: PATH, HOME, LANG and the plan’s variables, no host variable', async () => {
    process.env.SLM_HOST_SECRET = 'host-only';
    try {
      const r = await run(['env'], { env: { CI: '1' } });
      const names = r.out
        .trim()
        .split('\n')
        .map((l) => l.split('=')[0])
        .sort();
      expect(names).toEqual(['CI', 'HOME', 'LANG', 'PATH', 'PWD']);
      expect(r.out).toContain('HOME=/tmp\n');
    } finally {
      delete process.env.SLM_HOST_SECRET;
    }
  });
});

describe.skipIf(!sandbox)('the bubblewrap sandbox: everyday commands work', () => {
  // Each row: argv, the directory under the root it runs in → what its output must contain (exit 0).
  const everyday: [string[], string, RegExp][] = [
    [['pwd'], '', /^\/ws\n$/],
    [['node', '-p', 'require("path").resolve("x")'], 'proj', /^\/ws\/proj\/x\n$/],
    [['ls', '-a'], '', /\.git\n.*notes\.txt/s],
    [['cat', 'notes.txt'], '', /^alpha\nbeta\ngamma\n$/],
    [['grep', '-rn', 'beta', 'notes.txt'], '', /^2:beta\n$/],
    [['git', 'status', '--short'], '', /^$/],
    [['git', 'log', '--oneline'], '', /start\n$/],
    [['node', '--test'], 'proj', /# pass 1\n/],
    [['npm', 'test', '--silent'], 'proj', /# pass 1\n/],
    // This machine's Python, its installation bound read-only (host-python.ts).
    ...(hostPython()
      ? ([
          [['python3', '-c', 'import sys; print(sys.version_info[0], sys.executable)'], '', /^3 \/.*python/],
          [['python3', '-m', 'unittest', '-h'], '', /usage: python3? -m unittest/],
        ] as [string[], string, RegExp][])
      : []),
    ...(hostPython()?.pytest
      ? ([[['python3', '-m', 'pytest', '--version'], '', /pytest \d/]] as [string[], string, RegExp][])
      : []),
  ];
  it.each(everyday)('%j in /%s', async (argv, dir, expected) => {
    const r = await run(argv, { cwd: join(root, dir) });
    expect(r.out).toMatch(expected);
    expect(r.code).toBe(0);
  });

  it('places the workspace at /ws, where every backend places it, writable, and .slmcode/scratch writable', async () => {
    const r = await sh(
      `echo made > made.txt && echo note > .slmcode/scratch/n.txt && pwd && [ -e "${root}" ] || echo gone`,
    );
    expect(r).toMatchObject({ code: 0, out: `${WORKSPACE_PATH}\ngone\n` });
    expect(await readFile(join(root, 'made.txt'), 'utf8')).toBe('made\n');
    expect(await readFile(join(root, '.slmcode/scratch/n.txt'), 'utf8')).toBe('note\n');
    await rm(join(root, 'made.txt'));
  });

  it('runs in a subdirectory given as cwd', async () => {
    const r = await run(['ls'], { cwd: join(root, 'proj/test') });
    expect(r).toMatchObject({ code: 0, out: 'add.test.js\n' });
  });
});

describe('the walk for nested .git', () => {
  let tree: string;
  beforeAll(async () => {
    tree = await mkdtemp(join(tmpdir(), 'slm-git-walk-'));
    for (const d of ['.git/objects', 'a/.git/objects', 'a/b/c/.git', 'wide/1', 'wide/2', 'wide/3'])
      await mkdir(join(tree, d), { recursive: true });
    await writeFile(join(tree, 'm.git'), '');
    await writeFile(join(tree, 'wide/.git'), 'gitdir: x\n');
    await symlink(join(tree, 'a'), join(tree, 'linked'));
  });
  afterAll(() => rm(tree, { recursive: true, force: true }));

  it('finds every .git below the root, files included, never the top-level one, never through a link, never inside a .git', () => {
    expect(nestedGitEntries(tree)).toEqual({ found: ['a/.git', 'wide/.git', 'a/b/c/.git'], cut: false });
  });

  it('says when it stopped before the end (breadth first, so the shallow ones come first)', () => {
    // Root: .git a linked m.git wide (5), then a/: .git b (7), then wide/: 1 2 3 .git (11).
    expect(nestedGitEntries(tree, 7)).toEqual({ found: ['a/.git'], cut: true });
    expect(nestedGitEntries(tree, 100).cut).toBe(false);
  });
});

describe('where bubblewrap cannot run', () => {
  it('runs nothing of the command: the process it gives prints why and the flag, and exits 126', () => {
    const refused = commandsRefused('bwrap is not installed (no bwrap on PATH)');
    const w = refused.wrap(['touch', 'made-by-the-model'], { root: tmpdir(), cwd: tmpdir(), env: { CI: '1' } });
    const r = spawnSync(w.file, w.args, { env: w.env, cwd: tmpdir(), encoding: 'utf8' });
    expect(r.status).toBe(126);
    expect(r.stderr).toBe(`${refused.note}\n`);
    expect(refused.note).toMatch(
      /^commands are not run: the OS sandbox \(bubblewrap\) cannot run here — bwrap is not installed .*pass --unsandboxed-commands, which runs the model's commands directly on this machine/,
    );
    expect(existsSync(join(tmpdir(), 'made-by-the-model'))).toBe(false);
  });
});

describe('without the sandbox (--unsandboxed-commands)', () => {
  it('passes the argv through with the host environment and the plan’s variables, and names the risk', () => {
    const w = UNSANDBOXED.wrap(['ls', '-l'], { root: '/p', cwd: '/p', env: { CI: '1' } });
    expect(w).toMatchObject({ file: 'ls', args: ['-l'], env: { CI: '1', PATH: process.env.PATH } });
    expect(UNSANDBOXED.note).toMatch(/directly on this machine, with your user's access to files and network/);
  });
});
