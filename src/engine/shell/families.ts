/**
 * Commands that are never free, grouped by what makes them so: wrappers that run another command,
 * code-from-text builtins, deleters, writers, pagers, editors, network clients, system tools and
 * build tools. Each family carries its tier, the reason and the tool to use instead, so the same
 * kind of command is always answered the same way.
 */
import { gated, isFinding, never, q, USE, type Verdict } from './decision.ts';
import { pathFinding } from './paths.ts';
import { isModelledWriter, writerVerdict, writing } from './writers.ts';
import type { Word } from './words.ts';

interface Family {
  readonly tier: 'never' | 'gated';
  readonly rule: string;
  /** Completes "`name` …". */
  readonly why: string;
  readonly use: string;
  /** Check the paths the command names: one outside the workspace makes it never. */
  readonly paths?: boolean;
  /** For a gated family whose members write no files, or files no rule can name: what the approval prompt lists. */
  readonly writes?: readonly string[];
}

const FAMILIES: readonly (readonly [string, Family])[] = [
  [
    'sudo su doas pkexec runuser nice ionice nohup setsid timeout time stdbuf chroot unshare flock watch strace ltrace gdb script expect parallel busybox command builtin exec coproc caffeinate taskset chrt firejail nsenter systemd-run fakeroot proot xvfb-run',
    { tier: 'never', rule: 'wrapper', why: 'runs another command, hiding it from these checks', use: USE.wrapper },
  ],
  [
    'env',
    {
      tier: 'never',
      rule: 'wrapper',
      why: 'runs another command with a changed environment (alone, it prints the environment and its secrets)',
      use: USE.wrapper,
    },
  ],
  [
    'eval source . trap alias unalias',
    { tier: 'never', rule: 'eval', why: 'runs text or a file as shell code in this shell', use: USE.oneCommand },
  ],
  [
    'printenv set',
    {
      tier: 'never',
      rule: 'environment',
      why: 'prints or changes the shell environment, which holds secrets',
      use: USE.readOnly,
    },
  ],
  [
    'rm rmdir unlink shred wipe srm',
    {
      tier: 'never',
      rule: 'delete',
      why: 'deletes files from the shell, with no checkpoint',
      use: USE.delete,
      paths: true,
    },
  ],
  [
    'mv',
    {
      tier: 'gated',
      rule: 'writer',
      why: 'moves files from the shell',
      use: `${USE.move} Otherwise a person must approve it.`,
      paths: true,
    },
  ],
  [
    'cp touch mkdir ln install tar unzip zip gzip gunzip bzip2 bunzip2 xz unxz 7z patch truncate split csplit mkfifo',
    {
      tier: 'gated',
      rule: 'writer',
      why: 'writes files from the shell',
      use: `${USE.write} Otherwise a person must approve it.`,
      paths: true,
    },
  ],
  [
    'chmod',
    {
      tier: 'gated',
      rule: 'writer',
      why: 'changes file modes from the shell',
      use: 'A person must approve it.',
      paths: true,
    },
  ],
  [
    'dd tee sponge chown chgrp mknod',
    { tier: 'never', rule: 'writer', why: 'writes files from the shell', use: USE.write },
  ],
  [
    'less more most man info',
    {
      tier: 'gated',
      rule: 'pager',
      why: 'is an interactive pager (it can run commands and never exits on its own)',
      use: 'Read files with ws_read, cat or head.',
      paths: true,
      writes: [],
    },
  ],
  [
    'vi vim nvim nano emacs ed ex pico micro joe code',
    { tier: 'never', rule: 'editor', why: 'is an interactive editor', use: 'Edit files with ws_edit or ws_patch.' },
  ],
  [
    'curl wget',
    {
      tier: 'gated',
      rule: 'network',
      why: 'uses the network (a channel out of the workspace)',
      use: USE.approval,
      paths: true,
    },
  ],
  [
    'dig nslookup host ping',
    {
      tier: 'gated',
      rule: 'network',
      why: 'uses the network (a channel out of the workspace)',
      use: USE.approval,
      paths: true,
      writes: [],
    },
  ],
  [
    'http https',
    {
      tier: 'gated',
      rule: 'network',
      why: 'uses the network (a channel out of the workspace)',
      use: USE.approval,
      paths: true,
      writes: ['files it is told to download (-o, --download), if any'],
    },
  ],
  [
    'nc ncat netcat socat telnet ssh scp sftp ftp rsync',
    { tier: 'never', rule: 'network', why: 'opens a remote connection or shell', use: USE.readOnly },
  ],
  [
    'kill pkill killall systemctl service shutdown reboot halt poweroff mount umount fdisk parted iptables ufw modprobe insmod rmmod useradd userdel usermod passwd chpasswd groupadd launchctl defaults pmset csrutil sysctl crontab at batch docker podman kubectl terraform aws gcloud az gh open xdg-open osascript history hostname',
    {
      tier: 'never',
      rule: 'system',
      why: 'changes the system or reaches services outside the workspace',
      use: USE.readOnly,
    },
  ],
  [
    'make cmake ninja gradle gradlew mvn ant bazel meson webpack vite rollup esbuild tsup',
    {
      tier: 'gated',
      rule: 'build',
      why: 'builds the project and writes its output',
      use: USE.approval,
      paths: true,
      writes: ['the build output (paths chosen by the build files, not known before it runs)'],
    },
  ],
  [
    'cd pushd popd',
    {
      tier: 'never',
      rule: 'cd',
      why: 'has no lasting effect: every ws_shell call starts in the workspace root',
      use: 'Pass paths relative to the workspace root instead (e.g. ls src/lib).',
    },
  ],
];

const BY_NAME: ReadonlyMap<string, Family> = new Map(
  FAMILIES.flatMap(([names, f]) => names.split(' ').map((n) => [n, f] as const)),
);

/** Every command name a family lists. */
export function familyNames(): string[] {
  return [...BY_NAME.keys()];
}

/** The family a command name belongs to (`mkfs.ext4` counts as a system tool). */
export function familyOf(name: string): Family | undefined {
  return BY_NAME.get(name) ?? (name.startsWith('mkfs') ? BY_NAME.get('fdisk') : undefined);
}

/** The path a word names: an operand, the value of `--opt=PATH` / `-oPATH`, or curl's `@FILE`. */
function namedPath(w: Word): string {
  const t = w.text.startsWith('@') ? w.text.slice(1) : w.text;
  if (!t.startsWith('-')) return t;
  const eq = t.indexOf('=');
  if (eq >= 0) return t.slice(eq + 1);
  return /^-[A-Za-z]\//.test(t) ? t.slice(2) : '';
}

/**
 * The verdict for a family member: its tier, unless it names a path outside the workspace (then
 * never). A writer's paths go through the write jail (writers.ts) and are listed on its finding.
 */
export function checkFamily(name: string, family: Family, args: readonly Word[]): Verdict {
  const what = `${q(name)} ${family.why}`;
  if (family.tier === 'gated' && isModelledWriter(name)) {
    const verdict = writerVerdict(name, args, gated(family.rule, what, family.use));
    if (isFinding(verdict) && verdict.tier === 'never' && verdict.rule === 'outside-path')
      return never(verdict.rule, `${what}, and ${verdict.what}`, verdict.use);
    return verdict;
  }
  if (family.paths) {
    for (const w of args) {
      const f = pathFinding(namedPath(w), w.raw);
      if (f) return never(f.rule, `${what}, and ${f.what}`, f.use);
    }
  }
  if (family.tier === 'never') return never(family.rule, what, family.use);
  const finding = gated(family.rule, what, family.use);
  return family.writes ? writing(finding, family.writes) : finding;
}
