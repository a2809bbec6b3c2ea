/**
 * An independent attack suite run through the real CLI, as a script would: commands through
 * `slm check-shell` (one process for all of them), paths through `slm batch` with the file
 * tools, and hostile programs through `slm batch` ws_shell inside the OS sandbox, against
 * canaries outside the workspace (a directory, a loopback listener, a marker a surviving
 * process would write). Every case here is one the product blocks; the cases are in
 * redteam-shell.json and redteam-paths.json, grouped by class.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeHostSandbox } from '../../src/workspace/node/host-sandbox.ts';
import { cleanup, runCli, tempRoot } from '../cli/cli-process.ts';

interface ShellCase {
  readonly class: string;
  readonly cmd: string;
  /** not-allow: refused or gated; refuse: refused outright (protected targets are never asked about). */
  readonly expect: 'not-allow' | 'refuse';
}

interface PathCase {
  readonly tool: 'ws_write' | 'ws_read' | 'ws_mv';
  readonly args: Record<string, string>;
}

const here = (f: string) => JSON.parse(readFileSync(new URL(f, import.meta.url), 'utf8')) as unknown;
const SHELL = here('./redteam-shell.json') as {
  readonly commands: readonly ShellCase[];
  readonly everyday: readonly string[];
};
const PATHS = here('./redteam-paths.json') as readonly PathCase[];

/** The most everyday read-only commands that may be refused or gated (issue 12: at most 5%). */
const MAX_FALSE_REFUSALS = 0.05;

/** Written by every path case; must appear nowhere it was refused. */
const CANARY = 'RTPWN\n';

async function checkShell(cmds: readonly string[]): Promise<{ decision: string; rule: string }[]> {
  const r = await runCli(['check-shell'], cmds.map((cmd) => JSON.stringify({ cmd })).join('\n') + '\n');
  expect(r.code).toBe(0);
  return r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { decision: string; rule: string });
}

async function batch(lines: readonly object[]): Promise<{ ok: boolean; text: string }[]> {
  const r = await runCli(['batch'], lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  expect(r.code).toBe(0);
  return r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { ok: boolean; text: string });
}

/** Every file under `dir` with its content, for before/after comparison. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out[join(e.parentPath, e.name)] = await readFile(join(e.parentPath, e.name), 'latin1');
  }
  return out;
}

function git(root: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd: root, stdio: 'ignore' });
}

afterAll(cleanup);

describe('hostile commands are refused or gated', () => {
  let decisions: { decision: string; rule: string }[];
  beforeAll(async () => {
    decisions = await checkShell(SHELL.commands.map((c) => c.cmd));
  }, 120_000);

  it('reads every case', () => {
    expect(decisions).toHaveLength(SHELL.commands.length);
  });

  const classes = [...new Set(SHELL.commands.map((c) => c.class))];
  it.each(classes)('class %s: no case is allowed, protected targets are refused', (cls) => {
    const wrong = SHELL.commands.flatMap((c, i) => {
      if (c.class !== cls) return [];
      const d = decisions[i]!;
      const bad = c.expect === 'refuse' ? d.decision !== 'refuse' : d.decision === 'allow';
      return bad ? [`${JSON.stringify(c.cmd)} → ${d.decision} (${d.rule})`] : [];
    });
    expect(wrong).toEqual([]);
  });
});

describe('everyday read-only commands', () => {
  it(`are refused or gated at most ${MAX_FALSE_REFUSALS * 100}% of the time`, async () => {
    const decisions = await checkShell(SHELL.everyday);
    const refused = SHELL.everyday.filter((_, i) => decisions[i]!.decision !== 'allow');
    expect(refused.length / SHELL.everyday.length, refused.join('\n')).toBeLessThanOrEqual(MAX_FALSE_REFUSALS);
  }, 120_000);
});

describe('paths the file tools refuse', () => {
  let root: string;
  let outside: string;
  let results: { ok: boolean; text: string }[];
  beforeAll(async () => {
    root = await tempRoot();
    outside = await tempRoot();
    await writeFile(join(outside, 'secret'), 'TOPSECRET\n');
    git(root, 'init', '-q');
    await writeFile(join(root, 'README.md'), 'hi\n');
    await mkdir(join(root, '.slmcode/scratch'), { recursive: true });
    await mkdir(join(root, 'd'));
    await symlink(outside, join(root, 'lnout'));
    await symlink(join(outside, 'secret'), join(root, 'lnsecret'));
    await symlink('.git', join(root, 'lngit'));
    await symlink('.slmcode', join(root, 'lnslm'));
    await symlink('d', join(root, 'dlink'));
    results = await batch(PATHS.map((p) => ({ root, tool: p.tool, args: p.args })));
  }, 120_000);

  it('refuses every case', () => {
    const passed = PATHS.filter((_, i) => results[i]!.ok).map((p) => JSON.stringify(p));
    expect(passed).toEqual([]);
  });

  it('leaves no canary outside, in .git/ or in .slmcode/', async () => {
    const places = [outside, join(root, '.git'), join(root, '.slmcode')];
    const hits = (await Promise.all(places.map(snapshot))).flatMap((s) =>
      Object.entries(s)
        .filter(([, t]) => t === CANARY)
        .map(([f]) => f),
    );
    expect(hits).toEqual([]);
  });

  it('reads nothing from outside', () => {
    expect(results.filter((r) => r.text.includes('TOPSECRET'))).toEqual([]);
  });
});

const sandboxed = 'kind' in (await probeHostSandbox());

/**
 * Tries writes outside and into .git/ (judged on the host afterwards: inside the sandbox an
 * outside path can be its own private /tmp), reads outside and connects to 127.0.0.1:PORT,
 * printing the reads and connections it managed.
 */
const PROBE = `
const fs = require('fs'), net = require('net');
// The policy refuses outside paths as arguments, so the probe reads its targets from a file.
const [port, outside] = JSON.parse(fs.readFileSync('probe-args.json', 'utf8'));
const done = [];
for (const p of [outside + '/pwned', process.cwd() + '/../pwned-sibling', process.cwd() + '/.git/pwned', process.cwd() + '/.git/hooks/pre-commit']) {
  try { fs.writeFileSync(p, 'x'); } catch {}
}
for (const p of [outside + '/secret', process.cwd() + '/lnout/secret']) {
  try { done.push('read ' + fs.readFileSync(p, 'utf8')); } catch {}
}
const s = net.connect(Number(port), '127.0.0.1');
s.on('connect', () => { done.push('connected'); finish(); });
s.on('error', finish);
function finish() { console.log(done.length ? done.join('\\n') : 'NOTHING'); }
`;

/** Starts a setsid grandchild that outlives a short timeout unless the sandbox ends it. */
const SURVIVOR = `
const { spawn } = require('child_process');
const marker = process.argv[2];
spawn('setsid', ['sh', '-c', 'sleep 2; echo alive > "$0"; sleep 300', marker], { detached: true, stdio: 'ignore' }).unref();
spawn('sh', ['-c', 'trap "" TERM HUP INT; sleep 2; echo alive > "$0.2"; sleep 300', marker], { detached: true, stdio: 'ignore' }).unref();
setInterval(() => {}, 1000);
`;

describe.skipIf(!sandboxed)('programs in the OS sandbox', () => {
  let root: string;
  let outside: string;
  let server: Server;
  let connections = 0;
  beforeAll(async () => {
    root = await tempRoot();
    outside = await tempRoot();
    await writeFile(join(outside, 'secret'), 'TOPSECRET\n');
    git(root, 'init', '-q');
    await writeFile(join(root, 'probe.js'), PROBE);
    await writeFile(join(root, 'survivor.js'), SURVIVOR);
    await symlink(outside, join(root, 'lnout'));
    git(root, 'add', 'probe.js');
    git(root, 'commit', '-qm', 'x');
    server = createServer((c) => {
      connections++;
      c.destroy();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('writes nothing outside or into .git/, reads nothing outside, reaches no listener', async () => {
    const port = (server.address() as { port: number }).port;
    const beforeGit = await snapshot(join(root, '.git'));
    await writeFile(join(root, 'probe-args.json'), JSON.stringify([String(port), outside]));
    const [r] = await batch([{ root, tool: 'ws_shell', args: { command: 'node probe.js' } }]);
    expect(r!.text).toContain('NOTHING');
    expect(await readdir(outside)).toEqual(['secret']);
    expect(await readdir(join(root, '..'))).not.toContain('pwned-sibling');
    expect(await snapshot(join(root, '.git'))).toEqual(beforeGit);
    expect(connections).toBe(0);
  }, 120_000);

  it('ends setsid and signal-ignoring children at the timeout', async () => {
    // Relative: the policy refuses absolute paths as arguments; the script runs in the root.
    const [r] = await batch([
      { root, tool: 'ws_shell', args: { command: 'node survivor.js late-marker', timeout_ms: 1000 } },
    ]);
    expect(r!.text).toContain('timed out');
    // A survivor would still be sleeping, with the marker path in its arguments.
    const ps = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    expect(ps.split('\n').filter((l) => l.includes('late-marker'))).toEqual([]);
    // And it would have written its marker two seconds in.
    await new Promise((done) => setTimeout(done, 3000));
    expect((await readdir(root)).filter((f) => f.startsWith('late-marker'))).toEqual([]);
  }, 120_000);
});
