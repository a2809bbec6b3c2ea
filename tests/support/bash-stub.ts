/**
 * A bench for the shell differential test: real `/bin/bash -c CMD` runs the command with every
 * program replaced by a stub, and the stubs report what bash actually ran — each one's argv,
 * stdin bytes, environment and working directory, one JSON file per process. Each stub also
 * writes `OUT <argv as JSON>` to its stdout and `ERR <argv as JSON>` to its stderr, so where
 * every descriptor went (a pipe, 2>&1, |&, >/dev/null, >&2 …) shows in what the next stage read
 * and in the final output. `expectedRun` derives the same observation from an execution plan,
 * so the two can be compared.
 *
 * PATH holds only the stubs: a program bash runs that the plan does not name fails with
 * "command not found" in the output (a visible difference) instead of running for real. Bash
 * builtins with a stub's name (echo, printf, pwd, test …) are disabled through BASH_ENV, since
 * the plan runs them as programs. The stubs are Perl, for a start-up of a few milliseconds.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ExecPlan } from '../../src/engine/workspace.ts';

/** One process as a stub saw it. */
export interface Call {
  readonly argv: readonly string[];
  readonly stdin: string;
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}

/** What a command did: its processes (sorted, since stages run at once) and its output lines (sorted, likewise). */
export interface Observation {
  readonly calls: readonly Call[];
  readonly output: readonly string[];
}

/**
 * The environment bash starts with: besides PATH and the locale, two names a command may set,
 * so that a prefix that changes an inherited value (`CI+=1`) shows.
 */
const BASE_ENV = (bin: string): Record<string, string> => ({
  PATH: bin,
  LC_ALL: 'C',
  CI: 'inherited',
  TZ: 'inherited',
});

/** Variables bash itself adds to a child's environment, and the bench's own. */
const SHELL_ADDED = new Set(['PWD', 'SHLVL', '_', 'OLDPWD', 'BASH_ENV']);

/** Files the workspace starts with, so patterns have something to match (and some they must skip). */
export const WORKSPACE_FILES: Readonly<Record<string, string>> = {
  'a.txt': 'alpha\n',
  'b.txt': 'beta\n',
  ab: 'ab\n',
  'a b.txt': 'space\n',
  '*': 'star\n',
  '.hidden': 'hidden\n',
  '.gitignore': 'node_modules\n',
  'package.json': '{"name":"bench","scripts":{"test":"vitest run"}}\n',
  'README.md': '# bench\n',
  'src/a.ts': 'export const a = 1;\n',
  'src/b.ts': 'export const b = 2;\n',
  'src/.env': 'SECRET=1\n',
  'docs/x.md': 'x\n',
};

const STUB = (logDir: string): string => String.raw`#!/usr/bin/perl
$SIG{PIPE} = 'IGNORE';
binmode STDIN; binmode STDOUT; binmode STDERR;
my $in = do { local $/; <STDIN> };
$in = '' unless defined $in;
my $name = $0; $name =~ s{.*/}{}s;
my @argv = ($name, @ARGV);
sub hx { unpack('H*', $_[0]) }
sub js { my $s = shift; $s =~ s/([\\"])/\\$1/g; $s =~ s/([\x00-\x1f\x7f])/sprintf('\\u%04x', ord $1)/ge; qq("$s") }
require Cwd;
my $rec = '{"argv":[' . join(',', map { '"' . hx($_) . '"' } @argv) . '],"stdin":"' . hx($in) . '","cwd":"' . hx(Cwd::getcwd()) . '","env":{'
  . join(',', map { '"' . hx($_) . '":"' . hx($ENV{$_}) . '"' } sort keys %ENV) . '}}';
open(my $fh, '>', '${logDir}/' . $$ . '.json') or die "stub log: $!";
print $fh $rec; close $fh;
my $m = '[' . join(',', map { js($_) } @argv) . ']';
$| = 1;
print STDOUT "OUT $m\n";
print STDERR "ERR $m\n";
`;

/** The argv as the stubs print it: JSON strings with only `"`, `\` and controls escaped (bytes above 0x7f stay raw). */
function markerArgv(argv: readonly string[]): string {
  const js = (s: string): string =>
    `"${s.replace(/[\\"]/g, '\\$&').replace(/[\x00-\x1f\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
  return `[${argv.map(js).join(',')}]`;
}

function fromHex(h: string): string {
  return Buffer.from(h, 'hex').toString('utf8');
}

function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

function sortedKeys(o: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function byJson(a: Call, b: Call): number {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export class BashBench {
  readonly root: string;
  readonly bin: string;
  readonly log: string;
  readonly ws: string;
  private readonly bashEnv: string;
  private readonly names = new Set<string>();

  constructor(names: Iterable<string>) {
    this.root = realpathSync(mkdtempSync(join(tmpdir(), 'slm-bash-bench-')));
    this.bin = join(this.root, 'bin');
    this.log = join(this.root, 'log');
    this.ws = join(this.root, 'ws');
    this.bashEnv = join(this.root, 'bash-env');
    for (const d of [this.bin, this.log, this.ws]) mkdirSync(d);
    const stub = join(this.root, 'stub.pl');
    writeFileSync(stub, STUB(this.log));
    chmodSync(stub, 0o755);
    for (const n of names) this.addStub(n);
    for (const [path, text] of Object.entries(WORKSPACE_FILES)) this.writeFile(path, text);
    // The project's own programs: node_modules/.bin/NAME runs the stub of that name.
    mkdirSync(join(this.ws, 'node_modules/.bin'), { recursive: true });
    const builtins = spawnSync('/bin/bash', ['-c', 'compgen -b'], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean);
    const shadowed = builtins.filter((b) => this.names.has(b));
    writeFileSync(this.bashEnv, shadowed.length ? `enable -n ${shadowed.join(' ')}\n` : '');
  }

  /** A stub named `name` in bin/ (and in the workspace's node_modules/.bin/). */
  addStub(name: string): void {
    if (this.names.has(name) || !/^[A-Za-z0-9_.+-]+$/.test(name)) return;
    this.names.add(name);
    symlinkSync(join(this.root, 'stub.pl'), join(this.bin, name));
  }

  /** Links node_modules/.bin/NAME in the workspace to the stub. */
  addProjectBin(name: string): void {
    this.addStub(name);
    const at = join(this.ws, 'node_modules/.bin', name);
    try {
      symlinkSync(join(this.root, 'stub.pl'), at);
    } catch {
      // already linked
    }
  }

  hasStub(name: string): boolean {
    return this.names.has(name);
  }

  writeFile(path: string, text: string): void {
    mkdirSync(dirname(join(this.ws, path)), { recursive: true });
    writeFileSync(join(this.ws, path), text);
  }

  readFile(path: string): string {
    return readFileSync(join(this.ws, path), 'utf8');
  }

  /** Runs `cmd` with real bash in the workspace, with only BASE_ENV and stdin from /dev/null. */
  runBash(cmd: string, timeoutMs = 10_000): Observation & { readonly timedOut: boolean } {
    for (const f of readdirSync(this.log)) unlinkSync(join(this.log, f));
    // Through a real pipe, stdout and stderr joined, as the runner joins them: Node's own pipes
    // are sockets, which /dev/stdout and /dev/stderr cannot be reopened on.
    const r = spawnSync('/bin/sh', ['-c', '"$0" -c "$1" 2>&1 | /bin/cat', '/bin/bash', cmd], {
      cwd: this.ws,
      env: { ...BASE_ENV(this.bin), BASH_ENV: this.bashEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    const calls: Call[] = readdirSync(this.log).map((f) => {
      const rec = JSON.parse(readFileSync(join(this.log, f), 'utf8')) as {
        argv: string[];
        stdin: string;
        cwd: string;
        env: Record<string, string>;
      };
      const env = Object.fromEntries(
        Object.entries(rec.env)
          .map(([k, v]) => [fromHex(k), fromHex(v)])
          .filter(([k]) => !SHELL_ADDED.has(k!)),
      );
      return { argv: rec.argv.map(fromHex), stdin: fromHex(rec.stdin), env: sortedKeys(env), cwd: fromHex(rec.cwd) };
    });
    const text = `${r.stdout?.toString('utf8') ?? ''}${r.stderr?.toString('utf8') ?? ''}`;
    return {
      calls: calls.sort(byJson),
      output: text
        .split('\n')
        .filter((l) => l !== '')
        .sort(),
      timedOut: r.error !== undefined,
    };
  }

  /** What the stubs would report if `plan` ran: argv[0] by its name (a path such as /usr/bin/rg runs the stub rg). */
  expectedRun(plan: ExecPlan): Observation {
    const stages = plan.stages;
    const argvOf = (i: number): string[] => {
      const argv = [...stages[i]!.argv];
      argv[0] = baseName(argv[0]!);
      return argv;
    };
    const calls: Call[] = [];
    const output: string[] = [];
    for (const [i, s] of stages.entries()) {
      const argv = argvOf(i);
      let stdin = '';
      if (s.stdin instanceof Uint8Array) stdin = Buffer.from(s.stdin).toString('utf8');
      else if (s.stdin === 'pipe' && i > 0) {
        const prev = stages[i - 1]!;
        const m = markerArgv(argvOf(i - 1));
        stdin = `${prev.stdout === 'next' ? `OUT ${m}\n` : ''}${prev.stderr === 'next' ? `ERR ${m}\n` : ''}`;
      }
      calls.push({ argv, stdin, env: sortedKeys({ ...BASE_ENV(this.bin), ...(s.env ?? {}) }), cwd: this.ws });
      const last = i === stages.length - 1;
      const m = markerArgv(argv);
      if (s.stdout === 'output' || (s.stdout === 'next' && last)) output.push(`OUT ${m}`);
      if (s.stderr === 'output' || (s.stderr === 'next' && last)) output.push(`ERR ${m}`);
    }
    return { calls: calls.sort(byJson), output: output.sort() };
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
