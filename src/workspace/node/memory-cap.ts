/**
 * One memory cap for all the processes of one command, however many it starts: a cgroup of its
 * own under this process's cgroup, with the kernel's memory limit on the group. RLIMIT_AS bounds
 * each process; only a cgroup bounds their sum (256 processes × 4 GiB would otherwise be allowed).
 *
 * Two layouts are understood:
 * - cgroup v1 (a `memory` hierarchy of its own): `memory.limit_in_bytes`, and
 *   `memory.memsw.limit_in_bytes` where swap accounting exists; kills read from `memory.oom_control`;
 * - cgroup v2 (unified): `memory.max` and `memory.swap.max`, kills from `memory.events`, usable
 *   only where this process's cgroup already delegates the memory controller to its children.
 *
 * A process enters the group before it becomes the command: the launcher is `/bin/sh` running a
 * fixed two-line program that writes its own pid into `cgroup.procs` and then `exec`s the argv it
 * was given as positional parameters (never as text to parse), so the command and everything it
 * starts are counted from their first byte.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

export interface MemoryCapGroup {
  /** The process to spawn: it joins this group, then execs `file` with `args`. */
  enter(file: string, args: readonly string[]): { file: string; args: string[] };
  /** How many processes of the group the kernel killed for going past the cap. */
  oomKills(): number;
  /** Removes the group (its processes must have ended). */
  close(): void;
}

export interface MemoryCap {
  readonly bytes: number;
  /** The cgroup layout in use. */
  readonly layout: 'v1' | 'v2';
  /** A fresh group for one command. */
  open(): MemoryCapGroup;
}

/** Why no cap can be set on this host, in a sentence for people. */
export interface NoMemoryCap {
  readonly unavailable: string;
}

/** The launcher's program: $1 is cgroup.procs, the rest is the argv to exec. */
const ENTER = 'echo "$$" > "$1" || exit 126\nshift\nexec "$@"';

/** The cgroup paths this process is in, by controller ('' for the v2 unified one), from /proc/self/cgroup. */
export function ownCgroups(procSelfCgroup: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of procSelfCgroup.split('\n')) {
    const m = /^\d+:([^:]*):(.*)$/.exec(line);
    if (!m) continue;
    for (const controller of m[1]!.split(',')) out.set(controller, m[2]!);
  }
  return out;
}

let serial = 0;

/**
 * The cap this host can set, or why it cannot. `cgroupRoot` and `procSelfCgroup` are parameters
 * so the probe can be tested against a made-up tree.
 */
export function probeMemoryCap(
  bytes: number,
  cgroupRoot = '/sys/fs/cgroup',
  procSelfCgroup = safeRead('/proc/self/cgroup') ?? '',
): MemoryCap | NoMemoryCap {
  const own = ownCgroups(procSelfCgroup);
  const v1Path = own.get('memory');
  if (v1Path !== undefined && existsSync(join(cgroupRoot, 'memory', 'cgroup.procs'))) {
    const parent = join(cgroupRoot, 'memory', v1Path);
    return tryLayout('v1', parent, bytes);
  }
  const v2Path = own.get('');
  if (v2Path !== undefined && existsSync(join(cgroupRoot, 'cgroup.controllers'))) {
    const parent = join(cgroupRoot, v2Path);
    const delegated = (safeRead(join(parent, 'cgroup.subtree_control')) ?? '').split(/\s+/).includes('memory');
    if (!delegated) {
      return {
        unavailable:
          `this process's cgroup (${v2Path || '/'}) does not delegate the memory controller, so no cap can be set on a command's processes together; ` +
          'start slm inside a scope that has one (systemd-run --user --scope -p MemoryMax=4G -- npx slm …) to bound them all',
      };
    }
    return tryLayout('v2', parent, bytes);
  }
  return { unavailable: 'no cgroup memory controller is mounted here, so processes are bounded one by one only' };
}

/** Makes one group to see whether this process may; the probe's group is removed again. */
function tryLayout(layout: 'v1' | 'v2', parent: string, bytes: number): MemoryCap | NoMemoryCap {
  const cap: MemoryCap = { bytes, layout, open: () => openGroup(layout, parent, bytes) };
  try {
    cap.open().close();
    return cap;
  } catch (e) {
    return {
      unavailable: `a cgroup could not be made under ${parent} (${e instanceof Error ? e.message : String(e)}), so processes are bounded one by one only`,
    };
  }
}

function openGroup(layout: 'v1' | 'v2', parent: string, bytes: number): MemoryCapGroup {
  // pid, thread and a counter: worker threads of one process share the pid.
  const dir = join(parent, `slm-${process.pid}-${threadId}-${++serial}`);
  mkdirSync(dir);
  try {
    if (layout === 'v1') {
      writeFileSync(join(dir, 'memory.limit_in_bytes'), String(bytes));
      // memsw must be written after the plain limit (it may not be below it).
      if (existsSync(join(dir, 'memory.memsw.limit_in_bytes')))
        writeFileSync(join(dir, 'memory.memsw.limit_in_bytes'), String(bytes));
    } else {
      writeFileSync(join(dir, 'memory.max'), String(bytes));
      if (existsSync(join(dir, 'memory.swap.max'))) writeFileSync(join(dir, 'memory.swap.max'), '0');
    }
  } catch (e) {
    rmdirSync(dir);
    throw e;
  }
  const procs = join(dir, 'cgroup.procs');
  return {
    enter: (file, args) => ({ file: '/bin/sh', args: ['-c', ENTER, 'slm-memory-cap', procs, file, ...args] }),
    oomKills: () => oomKills(layout, dir),
    close: () => {
      try {
        rmdirSync(dir);
      } catch {
        // Still busy (a process not yet reaped) or already gone: the kernel frees an empty group's
        // memory anyway, and nothing reads this directory again.
      }
    },
  };
}

function oomKills(layout: 'v1' | 'v2', dir: string): number {
  const text = safeRead(join(dir, layout === 'v1' ? 'memory.oom_control' : 'memory.events')) ?? '';
  const m = /^oom_kill (\d+)$/m.exec(text);
  return m ? Number(m[1]) : 0;
}

function safeRead(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
