/**
 * The OS sandbox for commands on a Node host: bubblewrap (`bwrap`). `wrap` turns one argv into
 * the process to spawn instead, so every stage of a plan runs inside its own sandbox:
 *
 * - the workspace bind-mounted read-write at WORKSPACE_PATH (`/ws`), where the memory workspace
 *   and every other sandbox place it too, so paths in output agree from one backend to another
 *   (and name no host directory); its `.git/` and `.slmcode/` mounted back read-only (`.slmcode/scratch/` stays
 *   writable), and so is every other `.git` found below the root (a submodule's, a nested
 *   repository's), up to GIT_WALK_ENTRIES entries walked — a cut walk is said in the result —
 *   and the repository a `.git` file names (`gitdir:`, and its `commondir`) where it is inside
 *   the root (git-entries.ts);
 * - the toolchain read-only: /usr, /bin, /sbin, /lib* (symlinks kept as symlinks on merged-/usr
 *   systems), this Node's installation and the host's Python (host-python.ts), and from /etc only what programs need to start
 *   (ld.so.cache and ld.so.conf*, alternatives, nsswitch.conf, localtime) plus a generated
 *   passwd, group and hosts naming only root, nobody and the sandbox user;
 * - a fresh /tmp (a tmpfs of TMP_BYTES), a minimal /dev with a /dev/shm of SHM_BYTES, a /proc of
 *   its own PID namespace, and the sandbox's root itself read-only (it is a tmpfs without a size);
 *   nothing else of the host: no /home, no /root, no /work, no network (`--unshare-net`), no
 *   IPC or UTS sharing, a session of its own (`--new-session`: no terminal to inject into);
 * - `--die-with-parent` and a PID namespace: killing the bwrap process ends every process
 *   inside, setsid ones too, because they all die with the namespace's init;
 * - a clean environment: PATH (this Node first, then the system directories), HOME=/tmp,
 *   LANG, and the plan's own variables;
 * - bwrap's options read from a descriptor (`--args`), so its command line, which a command
 *   inside reads at /proc/1/cmdline, names none of the host paths it mounts;
 * - rlimits set by util-linux `prlimit` inside the sandbox (LIMITS), and, where this host lets a
 *   cgroup be made (memory-cap.ts), one memory cap for all the processes of a command together.
 *
 * RLIMIT_NPROC never applies to uid 0 of the host (the kernel exempts it, user namespace or
 * not), so the sandbox picks one of two arrangements, decided by who runs slm:
 * - a normal user: bwrap makes a user namespace (same uid inside, no capabilities, nested user
 *   namespaces disabled); the process limit counts the processes of that namespace only;
 * - root: no user namespace; the command drops to uid/gid 65534 (`setpriv`) keeping only
 *   CAP_DAC_OVERRIDE as an ambient capability (and SECBIT_NO_SETUID_FIXUP, so access(2) honours
 *   it too), so it can still read and write the workspace's root-owned files but chmod none of
 *   them, and the process limit counts every process of uid 65534 on this machine (all
 *   sandboxes together). Files the command creates are owned by 65534 on disk; a system
 *   gitconfig inside marks every directory safe, since git refuses a repository owned by another
 *   uid. NO_NEW_PRIVS and nosuid mounts (bwrap's own) keep setuid programs from raising it.
 *
 * In both modes a seccomp filter (userns-filter.ts, passed to bwrap as `--seccomp 3`) refuses
 * `unshare`/`clone` with CLONE_NEWUSER and answers `clone3` ENOSYS, so no command makes a user
 * namespace of its own (root mode has no sandbox user namespace for `--disable-userns` to act on).
 */
import { spawn, type IOType } from 'node:child_process';
import type { Stream } from 'node:stream';
import {
  accessSync,
  closeSync,
  constants,
  lstatSync,
  mkdtempSync,
  openSync,
  readlinkSync,
  realpathSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { gitStatePaths, GIT_WALK_ENTRIES, isInside, realInsideRoot } from './git-entries.ts';
import { hostPython, NO_HOST_PYTHON, PYTHON_NAMES } from './host-python.ts';
import { WORKSPACE_PATH } from '../../engine/workspace.ts';
import { probeMemoryCap, type MemoryCap } from './memory-cap.ts';
import { userNamespaceFilter } from './userns-filter.ts';

/** The process to spawn for one sandboxed argv. */
export interface SandboxedSpawn {
  readonly file: string;
  readonly args: string[];
  readonly env: Record<string, string>;
  /** Something a person should know about how this one runs (a cut walk for nested `.git`). */
  readonly note?: string;
  /**
   * Descriptors opened for this one spawn, given to the child as fd 3, 4, … (bwrap reads its
   * seccomp filter from one): spawn with `sandboxStdio`, then `closeSandboxFds` in the parent.
   */
  readonly fds?: readonly number[];
}

/** One of spawn's stdio entries. */
type StdioEntry = IOType | Stream | number | null | undefined;

/** The stdio array for spawning `w`: the three given, then the descriptors `w` hands over. */
export function sandboxStdio(
  stdin: StdioEntry,
  stdout: StdioEntry,
  stderr: StdioEntry,
  w: SandboxedSpawn,
): StdioEntry[] {
  return [stdin, stdout, stderr, ...(w.fds ?? [])];
}

/** Closes the parent's copies of the descriptors `w` handed to its child (call once it was spawned, or failed to). */
export function closeSandboxFds(w: SandboxedSpawn): void {
  for (const fd of w.fds ?? []) closeSync(fd);
}

export interface WrapOptions {
  /** The workspace directory: absolute and physical (its realpath). */
  readonly root: string;
  /** Absolute, inside `root`. */
  readonly cwd: string;
  /** The plan's variables, added to the sandbox's clean environment. */
  readonly env: Readonly<Record<string, string>>;
}

/** Commands run inside bubblewrap. */
export interface HostSandbox {
  readonly kind: 'bwrap';
  /** Where the workspace is inside the sandbox: `WORKSPACE_PATH`, whatever its directory on the host. */
  readonly workspacePath: string;
  /** Who the command runs as: the user's own uid in a user namespace, or uid 65534 when slm runs as root. */
  readonly mode: 'user' | 'root';
  /** One sentence for people: where commands run and within which limits. */
  readonly note: string;
  /** The cap on a command's processes together, where this host can set one. */
  readonly memoryCap: MemoryCap | null;
  wrap(argv: readonly string[], opts: WrapOptions): SandboxedSpawn;
}

/** The person passed --unsandboxed-commands: commands run directly on this machine. */
export interface Unsandboxed {
  readonly kind: 'unsandboxed';
  readonly note: string;
  /** The argv as it is, with this process's environment and the plan's variables. */
  wrap(argv: readonly string[], opts: WrapOptions): SandboxedSpawn;
}

/**
 * No sandbox could run and the person did not accept the risk: commands are not run. `wrap`
 * gives a process that only prints `note` (why, and what to do) and exits 126, so an executor
 * that spawns what `wrap` returns runs nothing of the model's command, whatever else it does.
 */
export interface CommandsRefused {
  readonly kind: 'refused';
  readonly note: string;
  wrap(argv: readonly string[], opts: WrapOptions): SandboxedSpawn;
}

/**
 * What a Node host runs its commands under. Every kind's `wrap` builds the whole environment
 * from the plan's variables (only the unsandboxed one adds the host's), so an executor passes a
 * stage's own variables and nothing of its own environment.
 */
export type CommandSandbox = HostSandbox | Unsandboxed | CommandsRefused;

/** The command-line flag that runs commands without the sandbox. */
export const UNSANDBOXED_FLAG = '--unsandboxed-commands';

/** What running without the sandbox means, in the words the CLI uses. */
export const UNSANDBOXED_RISK =
  "runs the model's commands directly on this machine, with your user's access to files and network";

export const UNSANDBOXED: Unsandboxed = Object.freeze({
  kind: 'unsandboxed',
  note: `commands ran without an OS sandbox (${UNSANDBOXED_FLAG}): the model's commands run directly on this machine, with your user's access to files and network`,
  wrap(argv: readonly string[], opts: WrapOptions): SandboxedSpawn {
    const [file = '', ...args] = argv;
    return { file, args, env: { ...hostEnv(), ...opts.env } };
  },
});

/** The refusal for a host where bubblewrap cannot run (`why`, from the probe). */
export function commandsRefused(why: string): CommandsRefused {
  const note =
    `commands are not run: the OS sandbox (bubblewrap) cannot run here — ${why}. ` +
    `Install bubblewrap (Debian/Ubuntu: apt install bubblewrap) on Linux, or pass ${UNSANDBOXED_FLAG}, which ${UNSANDBOXED_RISK}.`;
  return {
    kind: 'refused',
    note,
    wrap: () => sayAndExit(note, 126),
  };
}

/** A process that only prints `text` on stderr and exits with `code`: what runs instead of a command that cannot. */
function sayAndExit(text: string, code: number): SandboxedSpawn {
  // "$0" is the text and "$1" the code: arguments, never shell text.
  return { file: '/bin/sh', args: ['-c', 'printf "%s\\n" "$0" >&2; exit "$1"', text, String(code)], env: {} };
}

/** The rlimits every sandboxed command runs under (values for `prlimit`, soft = hard). */
export const LIMITS = Object.freeze({
  /** RLIMIT_NPROC: processes (threads count too). */
  processes: 256,
  /**
   * RLIMIT_DATA: writable private memory per process (heap, array buffers, a WebAssembly memory
   * once it is used). Not RLIMIT_AS: V8 reserves about 10 GiB of address space (inaccessible, so
   * not counted here) for each WebAssembly memory, and any address-space cap low enough to matter
   * stops WebAssembly, Node's own fetch included.
   */
  dataBytes: 4 * 1024 ** 3,
  /** RLIMIT_FSIZE: the largest file a command may write (a bigger write fails with SIGXFSZ / EFBIG). */
  fileBytes: 1024 ** 3,
  /** RLIMIT_CORE: no core dumps in the workspace. */
  coreBytes: 0,
  /** The memory of all a command's processes together (a cgroup's limit, where one can be made). */
  memoryBytes: 4 * 1024 ** 3,
});

/** The size of the sandbox's private /tmp (tmpfs, counted in no rlimit). */
export const TMP_BYTES = 256 * 1024 ** 2;

/** The size of the sandbox's /dev/shm (tmpfs, like /tmp). */
export const SHM_BYTES = 64 * 1024 ** 2;

/** uid and gid a command runs as when slm runs as root. */
const NOBODY = 65534;

/** Toolchain entries shared read-only when they exist (as symlinks where the host has symlinks). */
const TOOLCHAIN = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/** What of the host's /etc programs need to start and find their libraries. */
const ETC = [
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/alternatives',
  '/etc/nsswitch.conf',
  '/etc/localtime',
];

const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

function hostEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) out[k] = v;
  return out;
}

/** The first executable `name` on this process's PATH, or undefined. */
function which(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? SYSTEM_PATH).split(':')) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here; the next directory
    }
  }
  return undefined;
}

/** The directory this Node is installed in (`…/bin/node` → `…`), physical. */
function nodePrefix(): { readonly prefix: string; readonly bin: string } {
  const exe = realpathSync(process.execPath);
  const bin = dirname(exe);
  return { prefix: posix.basename(bin) === 'bin' ? dirname(bin) : bin, bin };
}

/** passwd, group, hosts (and, for root mode, a gitconfig) written once per process, removed at exit. */
function generatedEtc(mode: 'user' | 'root'): string {
  const dir = mkdtempSync(join(tmpdir(), 'slm-sandbox-etc-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const uid = mode === 'root' ? NOBODY : (process.getuid?.() ?? NOBODY);
  const gid = mode === 'root' ? NOBODY : (process.getgid?.() ?? NOBODY);
  const users = [
    `root:x:0:0:root:/tmp:/usr/sbin/nologin`,
    `nobody:x:${NOBODY}:${NOBODY}:nobody:/tmp:/usr/sbin/nologin`,
  ];
  const groups = [`root:x:0:`, `nogroup:x:${NOBODY}:`];
  if (uid !== 0 && uid !== NOBODY) users.push(`sandbox:x:${uid}:${gid}:sandbox:/tmp:/bin/sh`);
  if (gid !== 0 && gid !== NOBODY) groups.push(`sandbox:x:${gid}:`);
  writeFileSync(join(dir, 'passwd'), `${users.join('\n')}\n`);
  writeFileSync(join(dir, 'group'), `${groups.join('\n')}\n`);
  writeFileSync(join(dir, 'hosts'), '127.0.0.1 localhost\n::1 localhost\n');
  writeFileSync(join(dir, 'gitconfig'), '[safe]\n\tdirectory = *\n');
  return dir;
}

/** bwrap arguments, with parent directories made world-traversable (uid 65534 must reach the workspace). */
class MountArgs {
  readonly args: string[] = [];
  readonly #made = new Set<string>(['/']);

  /** Creates every missing ancestor of `path` as a 0755 directory. */
  parents(path: string): void {
    const parts = path.split('/').filter(Boolean);
    for (let i = 1; i < parts.length; i++) this.dir(`/${parts.slice(0, i).join('/')}`);
  }

  dir(path: string): void {
    if (this.#made.has(path)) return;
    this.#made.add(path);
    this.args.push('--perms', '0755', '--dir', path);
  }

  /** Marks `path` as present, so no `--dir` is made for it or under it by `parents`. */
  mounted(path: string): void {
    this.#made.add(path);
  }

  push(...args: string[]): void {
    this.args.push(...args);
  }
}

interface Tools {
  readonly bwrap: string;
  readonly prlimit: string;
  /** Only for root mode. */
  readonly setpriv?: string;
}

/** The toolchain, /etc, /proc, /dev and /tmp: the same for every command of this process. */
function baseMounts(mode: 'user' | 'root', etc: string): { readonly args: readonly string[]; readonly path: string } {
  const m = new MountArgs();
  for (const p of TOOLCHAIN) {
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (st?.isSymbolicLink()) m.push('--symlink', readlinkSync(p), p);
    else if (st?.isDirectory()) m.push('--ro-bind', p, p);
    else continue;
    m.mounted(p);
  }
  const node = nodePrefix();
  const python = hostPython();
  // This Node's installation and the host's Python (its interpreter and library), read-only.
  const installs = [node.prefix, ...(python?.prefixes ?? [])]
    .sort((a, b) => a.length - b.length)
    .filter((p, i, all) => !all.slice(0, i).some((q) => isInside(p, q)));
  for (const prefix of installs) {
    if (TOOLCHAIN.some((t) => isInside(prefix, t))) continue;
    m.parents(prefix);
    m.push('--ro-bind', prefix, prefix);
    m.mounted(prefix);
  }
  m.dir('/etc');
  for (const p of ETC) m.push('--ro-bind-try', p, p);
  for (const f of ['passwd', 'group', 'hosts']) m.push('--ro-bind', join(etc, f), `/etc/${f}`);
  if (mode === 'root') m.push('--ro-bind', join(etc, 'gitconfig'), '/etc/gitconfig');
  m.push('--symlink', '../proc/self/mounts', '/etc/mtab');
  m.push('--proc', '/proc', '--dev', '/dev', '--perms', '1777', '--size', String(TMP_BYTES), '--tmpfs', '/tmp');
  // --dev brings a /dev/shm as large as the host's; this one is bounded like /tmp.
  m.push('--perms', '1777', '--size', String(SHM_BYTES), '--tmpfs', '/dev/shm');
  for (const p of ['/proc', '/dev', '/tmp']) m.mounted(p);
  // Installations outside the system directories come first, so a system python3 or node never shadows them.
  const system = SYSTEM_PATH.split(':');
  const own = [node.bin, ...(python ? [python.bin] : [])].filter((d) => !system.includes(d));
  const path = [...new Set([...own, ...system])].join(':');
  return { args: m.args, path };
}

/** A host path inside `root` as the sandbox sees it, below WORKSPACE_PATH. */
function placed(root: string, hostPath: string): string {
  return hostPath === root ? WORKSPACE_PATH : `${WORKSPACE_PATH}${hostPath.slice(root.length)}`;
}

/**
 * `.slmcode/` read-only (wherever it resolves inside the root), `.slmcode/scratch/` writable
 * again, then git's state read-only (scratch included): every `.git`, top-level and nested, and
 * the repository a `.git` file names (gitStatePaths), each at its place below WORKSPACE_PATH;
 * `note` says when the walk for nested ones was cut.
 */
function protectedMounts(root: string): { readonly args: string[]; readonly note?: string } {
  const out: string[] = [];
  const slmcode = realInsideRoot(root, join(root, '.slmcode'));
  if (slmcode) out.push('--ro-bind', slmcode, placed(root, slmcode));
  // scratch/ is writable only as the real directory it is: a link there (to ../.git, say) would
  // otherwise make its target writable. It is bound at its own path, never at a resolved one.
  const scratch = join(root, '.slmcode', 'scratch');
  const st = lstatIfAny(scratch);
  if (st?.isDirectory() && !lstatIfAny(join(root, '.slmcode'))?.isSymbolicLink())
    out.push('--bind', scratch, placed(root, scratch));
  const git = gitStatePaths(root);
  for (const p of git.paths) out.push('--ro-bind', p, placed(root, p));
  if (!git.cut) return { args: out };
  const note = `the workspace has more than ${GIT_WALK_ENTRIES} entries, so only the nested .git directories among the first ${GIT_WALK_ENTRIES} (breadth first) were made read-only, and a nested .git a command makes is looked for (and removed) only among them; the top-level .git and .slmcode always are`;
  return { args: out, note };
}

function lstatIfAny(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function limitArgs(): string[] {
  const l = LIMITS;
  const pair = (n: number) => `${n}:${n}`;
  return [
    `--nproc=${pair(l.processes)}`,
    `--data=${pair(l.dataBytes)}`,
    `--fsize=${pair(l.fileBytes)}`,
    `--core=${pair(l.coreBytes)}`,
  ];
}

function gib(n: number): string {
  return `${n / 1024 ** 3} GiB`;
}

function makeSandbox(tools: Tools, mode: 'user' | 'root'): HostSandbox {
  const etc = generatedEtc(mode);
  const base = baseMounts(mode, etc);
  const namespaces =
    mode === 'user'
      ? ['--unshare-all', '--unshare-user', '--disable-userns']
      : // No user namespace: the command must be a non-root uid of the host for the process limit to count.
        [
          '--unshare-ipc',
          '--unshare-pid',
          '--unshare-net',
          '--unshare-uts',
          '--unshare-cgroup-try',
          '--cap-add',
          'CAP_SETUID,CAP_SETGID,CAP_SETPCAP,CAP_DAC_OVERRIDE',
        ];
  const drop =
    mode === 'root'
      ? [
          tools.setpriv!,
          `--reuid=${NOBODY}`,
          `--regid=${NOBODY}`,
          '--clear-groups',
          '--securebits=+no_setuid_fixup',
          '--inh-caps=-all,+dac_override',
          '--ambient-caps=-all,+dac_override',
          '--bounding-set=-all,+dac_override',
          '--',
        ]
      : [];
  const who = mode === 'root' ? `uid ${NOBODY} (slm runs as root)` : 'your uid in a user namespace';
  // The seccomp filter that refuses new user namespaces, in both modes: written once, opened per
  // spawn (bwrap reads the descriptor to its end, so each spawn needs its own).
  const filter = userNamespaceFilter();
  const filterFile = filter ? join(etc, 'userns.bpf') : undefined;
  if (filter && filterFile) writeFileSync(filterFile, filter);
  const userns = filterFile
    ? 'no new user namespaces (a seccomp filter)'
    : `new user namespaces not filtered (no seccomp filter for ${process.arch})${mode === 'user' ? ', though disabled by bwrap' : ''}`;
  const cap = probeMemoryCap(LIMITS.memoryBytes);
  const note =
    `ran in the bubblewrap sandbox as ${who}: only the workspace writable (.git and .slmcode read-only), the toolchain read-only, a private /tmp, no network, ${userns}; ` +
    `at most ${LIMITS.processes} processes, ${gib(LIMITS.dataBytes)} of writable memory per process, files up to ${gib(LIMITS.fileBytes)}, ` +
    ('layout' in cap
      ? `${gib(cap.bytes)} of memory for all of a command's processes together`
      : `no cap on all of a command's processes together (${cap.unavailable})`);
  return {
    kind: 'bwrap',
    workspacePath: WORKSPACE_PATH,
    mode,
    note,
    memoryCap: 'layout' in cap ? cap : null,
    wrap(argv, opts) {
      if (opts.root === '/')
        throw new Error('the workspace root is /, which cannot be sandboxed: open a project directory');
      if (!isInside(opts.cwd, opts.root))
        throw new Error(`the working directory ${opts.cwd} is outside the workspace ${opts.root}`);
      if (PYTHON_NAMES.has(argv[0] ?? '') && !hostPython()) return sayAndExit(NO_HOST_PYTHON, 127);
      const m = new MountArgs();
      for (const p of [...TOOLCHAIN, '/etc', '/proc', '/dev', '/tmp']) m.mounted(p);
      m.parents(WORKSPACE_PATH);
      const env: Record<string, string> = {
        PATH: base.path,
        HOME: '/tmp',
        LANG: process.env.LANG ?? 'C.UTF-8',
        ...opts.env,
      };
      const setenv = Object.entries(env).flatMap(([k, v]) => ['--setenv', k, v]);
      const guarded = protectedMounts(opts.root);
      // The child's fd 3 (sandboxStdio): its own open of the filter.
      const fds = filterFile ? [openSync(filterFile, 'r')] : [];
      const options = [
        ...namespaces,
        '--die-with-parent',
        '--new-session',
        ...base.args,
        ...m.args,
        '--bind',
        opts.root,
        WORKSPACE_PATH,
        ...guarded.args,
        // The sandbox's own root is a tmpfs with no size of its own: nothing may be written there.
        '--remount-ro',
        '/',
        ...(fds.length ? ['--seccomp', '3'] : []),
        '--chdir',
        placed(opts.root, opts.cwd),
        '--clearenv',
        ...setenv,
      ];
      // bwrap reads its options from a descriptor, so its command line — /proc/1/cmdline inside,
      // since bwrap is the PID namespace's first process — is `bwrap --args N -- <the command>`:
      // none of the mounts' host paths (the workspace's directory, the generated /etc) is in it.
      fds.push(argumentsFd(etc, options));
      return {
        file: tools.bwrap,
        args: ['--args', String(2 + fds.length), '--', ...drop, tools.prlimit, ...limitArgs(), '--', ...argv],
        env: { PATH: SYSTEM_PATH },
        ...(guarded.note ? { note: guarded.note } : {}),
        ...(fds.length ? { fds } : {}),
      };
    },
  };
}

let argumentFiles = 0;

/**
 * A descriptor reading `args` NUL-terminated, as `bwrap --args` wants them: a file written in the
 * process's private directory and unlinked at once, so only the descriptor holds it (bwrap reads
 * it to its end and closes it before anything of the command runs).
 */
function argumentsFd(dir: string, args: readonly string[]): number {
  const file = join(dir, `args-${++argumentFiles}`);
  writeFileSync(file, args.map((a) => `${a}\0`).join(''), { mode: 0o600 });
  try {
    return openSync(file, 'r');
  } finally {
    unlinkSync(file);
  }
}

/** Runs `true` through the sandbox once; resolves to the reason it failed, or undefined. */
function tryOnce(sandbox: HostSandbox): Promise<string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'slm-sandbox-probe-'));
  const root = realpathSync(dir);
  const w = sandbox.wrap(['true'], { root, cwd: root, env: {} });
  return new Promise((resolve) => {
    let err = '';
    let child;
    try {
      child = spawn(w.file, w.args, { env: w.env, stdio: sandboxStdio('ignore', 'ignore', 'pipe', w) });
    } finally {
      closeSandboxFds(w);
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.on('error', (e) => (err ||= e.message));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
      resolve(
        code === 0
          ? undefined
          : `a trial command failed (${signal ?? `exit ${code}`}): ${err.trim().split('\n')[0] || 'no message'}`,
      );
    });
  });
}

async function probe(): Promise<HostSandbox | { readonly ok: false; readonly why: string }> {
  if (process.platform !== 'linux')
    return { ok: false, why: `bubblewrap needs Linux, and this is ${process.platform}` };
  const bwrap = which('bwrap');
  if (!bwrap) return { ok: false, why: 'bwrap is not installed (no bwrap on PATH)' };
  const prlimit = which('prlimit');
  if (!prlimit) return { ok: false, why: 'prlimit (util-linux) is not installed, so no limits could be set' };
  const mode = process.getuid?.() === 0 ? 'root' : 'user';
  const setpriv = mode === 'root' ? which('setpriv') : undefined;
  if (mode === 'root' && !setpriv)
    return {
      ok: false,
      why: 'slm runs as root and setpriv (util-linux) is not installed, so commands cannot drop to an unprivileged uid',
    };
  const sandbox = makeSandbox({ bwrap, prlimit, ...(setpriv && { setpriv }) }, mode);
  const failed = await tryOnce(sandbox);
  return failed ? { ok: false, why: failed } : sandbox;
}

let probed: ReturnType<typeof probe> | undefined;

/** Whether bubblewrap can run commands here (checked once per process, by running one). */
export function probeHostSandbox(): Promise<HostSandbox | { readonly ok: false; readonly why: string }> {
  return (probed ??= probe());
}

/** The sandbox the CLI runs commands under: bubblewrap, or with `allowUnsandboxed` none, or else a refusal saying why. */
export async function commandSandbox(allowUnsandboxed: boolean): Promise<CommandSandbox> {
  const probed = await probeHostSandbox();
  if ('kind' in probed) return probed;
  return allowUnsandboxed ? UNSANDBOXED : commandsRefused(probed.why);
}
