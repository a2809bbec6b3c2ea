/**
 * The WebContainer backend over a stand-in WebContainer (Node fs and processes with
 * WebContainer's limits: no stat/lstat/symlinks in the fs API, message-only errors, one output
 * stream). It passes the shared contract suite without its symlink rows, which this backend
 * honestly lacks; here, what only it does: links it finds are invisible, files mount at once.
 */
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { singleCommand, type ExecOptions, type Workspace } from '../../engine/workspace.ts';
import { workspaceContract } from '../../../tests/contract/workspace-contract.ts';
import { NodeWebContainer } from './node-webcontainer.fixture.ts';
import type { SpawnedProcess } from './spawn-capped.ts';
import type { TerminalEvent } from './terminal-feed.ts';
import { WebContainerWorkspace, type WebContainerLike } from './webcontainer-workspace.ts';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function fresh(events?: TerminalEvent[]): Promise<{ ws: WebContainerWorkspace; wc: NodeWebContainer }> {
  const dir = await mkdtemp(join(tmpdir(), 'slm-wc-'));
  dirs.push(dir);
  const wc = new NodeWebContainer(dir);
  return { ws: new WebContainerWorkspace(wc, events ? { onTerminal: (e) => events.push(e) } : {}), wc };
}

const enc = new TextEncoder();
const bytes = (s: string): Uint8Array => enc.encode(s);
const text = async (ws: Workspace, p: string): Promise<string> => new TextDecoder().decode(await ws.readFile(p));

workspaceContract('webcontainer (stand-in)', async () => (await fresh()).ws, { symlinks: false });

describe('files', () => {
  let ws: WebContainerWorkspace;
  let wc: NodeWebContainer;
  beforeEach(async () => {
    ({ ws, wc } = await fresh());
    await ws.writeFile('a.txt', bytes('alpha\n'));
  });

  it('describes itself: webcontainer, rooted at the workdir', () => {
    expect([ws.kind, ws.root]).toEqual(['webcontainer', wc.workdir]);
  });

  it('errors carry the relative path, not the fs path inside WebContainer', async () => {
    const err = await ws.readFile('src/missing.js').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'ENOENT', path: 'src/missing.js', message: 'ENOENT: src/missing.js' });
  });

  it('links are invisible, as WebContainer shows them: listed as files, read through, readlink null', async () => {
    await symlink('a.txt', join(wc.workdir, 'link'));
    await symlink('nowhere', join(wc.workdir, 'dangling'));
    expect(await ws.readdir('')).toContainEqual({ name: 'link', type: 'file' });
    expect(await ws.lstat('link')).toEqual({ type: 'file', size: 6 });
    expect(await ws.readlink('link')).toBeNull();
    expect(await ws.lstat('dangling')).toBeNull();
    // Listed, so it can still be removed (and is never silently replaced by a rename).
    await expect(ws.rename('a.txt', 'dangling')).rejects.toMatchObject({ code: 'EEXIST' });
    await ws.remove('dangling');
    expect((await ws.readdir('')).map((e) => e.name)).not.toContain('dangling');
  });

  it('mountFiles replaces every file with the given set in one mount', async () => {
    await ws.mountFiles({ 'package.json': '{}\n', 'src/index.js': 'export {};\n', 'test/a/b.test.js': '' });
    expect((await ws.readdir('')).map((e) => e.name)).toEqual(['package.json', 'src', 'test']);
    expect((await ws.readdir('src')).map((e) => e.name)).toEqual(['index.js']);
    expect(await text(ws, 'src/index.js')).toBe('export {};\n');
    expect(await ws.lstat('test/a/b.test.js')).toEqual({ type: 'file', size: 0 });
  });
});

describe('exec', () => {
  const base: ExecOptions = { timeoutMs: 10_000, maxOutputBytes: 64 * 1024 };

  it('spawns exactly argv, relative cwd and env; interleaves output; reports the exit code', async () => {
    const { ws, wc } = await fresh();
    await ws.mkdir('sub');
    const r = await ws.exec(singleCommand(['sh', '-c', 'echo "$P" $0; pwd; echo err >&2; exit 3', '$HOME *']), {
      ...base,
      cwd: 'sub',
      env: { P: 'probe' },
    });
    expect(wc.spawned.at(-1)).toEqual({
      command: 'sh',
      args: ['-c', 'echo "$P" $0; pwd; echo err >&2; exit 3', '$HOME *'],
      options: { cwd: 'sub', env: { P: 'probe' } },
    });
    expect(r).toMatchObject({
      exitCode: 3,
      output: `probe $HOME *\n${join(wc.workdir, 'sub')}\nerr\n`,
      truncated: false,
      timedOut: false,
    });
    expect(r.totalBytes).toBe(r.output.length);
    const atRoot = await ws.exec(singleCommand(['pwd']), base);
    expect(wc.spawned.at(-1)?.options).toEqual({});
    expect(atRoot.output).toBe(`${wc.workdir}\n`);
  });

  it('caps output while running: head and tail kept, every byte counted, the cut marked', async () => {
    const { ws } = await fresh();
    const script = 'echo HEAD-START; head -c 1000000 /dev/zero | tr "\\0" x; echo; echo TAIL-END';
    const r = await ws.exec(singleCommand(['sh', '-c', script]), { ...base, maxOutputBytes: 1000 });
    expect(r).toMatchObject({ exitCode: 0, truncated: true, totalBytes: 11 + 1_000_000 + 1 + 9 });
    expect(r.output.startsWith('HEAD-START\nxxx')).toBe(true);
    expect(r.output.endsWith('xxx\nTAIL-END\n')).toBe(true);
    expect(r.output).toContain(`\n… [${r.totalBytes - 1000} bytes of output omitted] …\n`);
  });

  it('kills on timeout and answers without waiting for the exit', async () => {
    const { ws } = await fresh();
    const started = Date.now();
    const r = await ws.exec(singleCommand(['sh', '-c', 'echo started; sleep 60']), { ...base, timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(r).toMatchObject({
      exitCode: null,
      timedOut: true,
      output: 'started\n',
      backendNote: 'killed after 300 ms',
    });
  });

  it('honours an AbortSignal before and during the run', async () => {
    const { ws, wc } = await fresh();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const r = await ws.exec(singleCommand(['sleep', '60']), { ...base, signal: ac.signal });
    expect(r).toMatchObject({ exitCode: null, timedOut: false, backendNote: 'cancelled; the process was killed' });
    const spawnsBefore = wc.spawned.length;
    const before = await ws.exec(singleCommand(['echo', 'never']), { ...base, signal: AbortSignal.abort() });
    expect(before).toMatchObject({ exitCode: null, output: '', backendNote: 'cancelled before it started' });
    expect(wc.spawned.length).toBe(spawnsBefore);
  });

  it.each([
    ['an empty argument vector', [], {}, 127, 'no command was given (the argument vector is empty)'],
    [
      'a working directory that does not exist',
      ['pwd'],
      { cwd: 'missing' },
      126,
      'could not start pwd in missing: no such directory',
    ],
    [
      'a working directory that is a file',
      ['pwd'],
      { cwd: 'f.txt' },
      126,
      'could not start pwd in f.txt: no such directory',
    ],
  ] as const)('does not spawn for %s', async (_label, argv, extra, exitCode, note) => {
    const { ws, wc } = await fresh();
    await ws.writeFile('f.txt', bytes('f'));
    const r = await ws.exec(singleCommand(argv), { ...base, ...extra });
    expect(r).toMatchObject({ exitCode, output: '', backendNote: note });
    expect(wc.spawned).toEqual([]);
  });

  it('tees the command, its output as it arrives and its end to the terminal listener', async () => {
    const events: TerminalEvent[] = [];
    const { ws } = await fresh(events);
    await ws.exec(singleCommand(['sh', '-c', 'echo one; echo two; exit 2']), base);
    await ws.exec(singleCommand(['sleep', '5']), { ...base, timeoutMs: 100 });
    expect(events[0]).toEqual({ kind: 'command', argv: ['sh', '-c', 'echo one; echo two; exit 2'], cwd: '' });
    const output = events
      .filter((e) => e.kind === 'output')
      .map((e) => (e as { data: string }).data)
      .join('');
    expect(output).toBe('one\ntwo\n');
    const ends = events.filter((e) => e.kind === 'exit');
    expect(ends).toEqual([
      { kind: 'exit', exitCode: 2 },
      { kind: 'exit', exitCode: null, note: 'killed after 100 ms' },
    ]);
  });
});

describe('exec against what WebContainer may do', () => {
  const base: ExecOptions = { timeoutMs: 150, maxOutputBytes: 1024 };
  /** A WebContainer whose spawn is replaced; its fs is an empty tree (listed to hold `.git/` and `.slmcode/`, of which there are none). */
  const withSpawn = (spawn: WebContainerLike['spawn']): WebContainerWorkspace =>
    new WebContainerWorkspace({
      workdir: '/home/p',
      fs: { readdir: () => Promise.resolve([]) } as unknown as WebContainerLike['fs'],
      mount: () => Promise.resolve(),
      spawn,
    });

  it('a spawn that rejects is exit 127 with the reason', async () => {
    const ws = withSpawn(() => Promise.reject(new Error('jsh: command not found: nope')));
    expect(await ws.exec(singleCommand(['nope']), base)).toMatchObject({
      exitCode: 127,
      backendNote: 'could not start nope: jsh: command not found: nope',
    });
  });

  it('a spawn that never answers is stopped by the timeout', async () => {
    const ws = withSpawn(() => new Promise(() => {}));
    expect(await ws.exec(singleCommand(['hang']), base)).toMatchObject({
      exitCode: null,
      timedOut: true,
      backendNote: 'killed after 150 ms',
    });
  });

  it('a killed process whose exit never settles and whose output stays open still ends at the timeout', async () => {
    let killed = 0;
    const proc: SpawnedProcess = {
      output: new ReadableStream<string>({ start: (c) => c.enqueue('partial ') }),
      exit: new Promise(() => {}),
      kill: () => killed++,
    };
    const started = Date.now();
    const r = await withSpawn(() => Promise.resolve(proc)).exec(singleCommand(['node', 'server.js']), base);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(r).toMatchObject({ exitCode: null, timedOut: true, output: 'partial ', totalBytes: 8 });
    expect(killed).toBe(1);
  });
});
