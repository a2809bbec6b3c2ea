/**
 * The page's self-check must pass on every backend that keeps the contract — memory (through
 * the proxy, as the page uses it), Node and the stand-in WebContainer — so that a row failing
 * online means WebContainer differs. And it must say what differs when a backend breaks a rule.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../engine/workspace.ts';
import { MemoryWorkspace } from '../memory/memory-workspace.ts';
import { NodeWorkspace } from '../node/node-workspace.ts';
import { ProxyWorkspace, serveWorkspace } from '../proxy/index.ts';
import { NodeWebContainer } from './node-webcontainer.fixture.ts';
import { CHECK_DIR, selfCheck, type CheckRow } from './self-check.ts';
import { WebContainerWorkspace } from './webcontainer-workspace.ts';

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'slm-self-check-'));
  dirs.push(d);
  return d;
}
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const failures = (rows: readonly CheckRow[]) => rows.filter((r) => !r.ok).map((r) => `${r.name}: ${r.detail}`);

describe('selfCheck passes on backends that keep the contract', () => {
  it('memory, through the proxy (file rows)', async () => {
    const { port1, port2 } = new MessageChannel();
    const server = serveWorkspace(port2, new MemoryWorkspace());
    const ws = await ProxyWorkspace.connect(port1);
    try {
      const rows = await selfCheck(ws, { exec: false });
      expect(failures(rows)).toEqual([]);
      expect(rows).toHaveLength(8);
      expect(await ws.readdir('')).toEqual([]);
    } finally {
      ws.close();
      server.close();
    }
  });

  it.each([
    ['node', async (): Promise<Workspace> => NodeWorkspace.open(await freshDir())],
    [
      'the stand-in WebContainer',
      async (): Promise<Workspace> => new WebContainerWorkspace(new NodeWebContainer(await freshDir())),
    ],
  ])('%s (every row, exec included)', async (_label, make) => {
    const ws = await make();
    const rows = await selfCheck(ws, { exec: true });
    expect(failures(rows)).toEqual([]);
    expect(rows).toHaveLength(13);
    expect(rows.find((r) => r.name === 'node runs: output and exit code')?.detail).toMatch(/^v\d+\.\d+\.\d+$/);
    expect(await ws.lstat(CHECK_DIR)).toBeNull();
  });
});

describe('selfCheck names what differs', () => {
  it('a backend that lists unsorted, sizes directories and cannot run node', async () => {
    const ws = new MemoryWorkspace();
    const readdir = ws.readdir.bind(ws);
    ws.readdir = async (p) => (await readdir(p)).reverse();
    const lstat = ws.lstat.bind(ws);
    ws.lstat = async (p) => {
      const st = await lstat(p);
      return st?.type === 'dir' ? { type: 'dir', size: 4096 } : st;
    };
    const rows = await selfCheck(ws, { exec: true });
    expect(failures(rows)).toEqual([
      'readdir sorts by code unit and gives types: entries: got [{"name":"dir","type":"dir"},{"name":"b","type":"file"},{"name":"a","type":"file"},{"name":"_","type":"file"},{"name":"B","type":"file"},{"name":"9","type":"file"},{"name":"10","type":"file"}], want [{"name":"10","type":"file"},{"name":"9","type":"file"},{"name":"B","type":"file"},{"name":"_","type":"file"},{"name":"a","type":"file"},{"name":"b","type":"file"},{"name":"dir","type":"dir"}]',
      'lstat: byte sizes, 0 for directories, null when missing or under a file: dir: got {"type":"dir","size":4096}, want {"type":"dir","size":0}',
      'node runs: output and exit code: exit code: got 127, want 3',
      'output is capped while running, every byte counted: truncated, totalBytes: got [false,0], want [true,200000]',
      'a timeout kills the process: exitCode, timedOut: got [127,false], want [null,true]',
      'a two-stage plan runs joined by a pipe, or is not run and says why: exit code: got 127, want 0',
      'node --check judges a broken file: verdict: got {"status":"error","checker":"acorn","message":"2:8 Unexpected token \\",\\""}, want {"status":"error","checker":"node --check","message":"2:8 Unexpected token \',\'"}',
    ]);
  });
});
