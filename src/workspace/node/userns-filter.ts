/**
 * The seccomp filter that keeps a sandboxed command from making a user namespace of its own: a
 * new user namespace is the entry point of most unprivileged kernel exploits, and in root mode
 * (no user namespace of the sandbox, so bwrap's `--disable-userns` cannot apply) nothing else
 * stops one. bwrap installs it from a descriptor (`--seccomp FD`) just before it runs the command,
 * in both modes.
 *
 * The program, assembled here as classic BPF over `struct seccomp_data` (nr at 0, arch at 4,
 * args[0]'s low word at 16, little-endian):
 * - a system call of another architecture (a 32-bit program on x86_64, whose numbers differ) and,
 *   on x86_64, any x32 call: EPERM;
 * - `unshare` and `clone` with CLONE_NEWUSER in their flags (args[0]): EPERM;
 * - `clone3`: ENOSYS — its flags live in memory a filter cannot read, and glibc (threads,
 *   posix_spawn) falls back to `clone` on ENOSYS, which the rule above judges;
 * - everything else: allowed.
 */

const CLONE_NEWUSER = 0x10000000;
const EPERM = 1;
const ENOSYS = 38;

const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;

/** Classic BPF opcodes used. */
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

/** The architectures the filter knows: their audit id and system call numbers. */
const ARCHES: Readonly<
  Record<string, { audit: number; unshare: number; clone: number; clone3: number; x32: boolean }>
> = {
  x64: { audit: 0xc000003e, unshare: 272, clone: 56, clone3: 435, x32: true },
  arm64: { audit: 0xc00000b7, unshare: 97, clone: 220, clone3: 435, x32: false },
};

/** One `struct sock_filter`: code (u16), jt (u8), jf (u8), k (u32). */
type Insn = readonly [code: number, jt: number, jf: number, k: number];

/**
 * The filter for `arch` (Node's `process.arch`) as the bytes bwrap reads, or null for an
 * architecture it does not know (the sandbox then says it has no such filter).
 */
export function userNamespaceFilter(arch: string = process.arch): Uint8Array | null {
  const a = ARCHES[arch];
  if (!a) return null;
  // Indexes: 11 = deny (EPERM), 12 = ENOSYS, 8 = the flags check. A jump counts from the next one.
  const prog: Insn[] = [
    /* 0 */ [LD_W_ABS, 0, 0, 4],
    /* 1 */ [JEQ_K, 0, 9, a.audit],
    /* 2 */ [LD_W_ABS, 0, 0, 0],
    /* 3 */ a.x32 ? [JGE_K, 7, 0, 0x40000000] : [JEQ_K, 7, 0, 0xffffffff],
    /* 4 */ [JEQ_K, 7, 0, a.clone3],
    /* 5 */ [JEQ_K, 2, 0, a.unshare],
    /* 6 */ [JEQ_K, 1, 0, a.clone],
    /* 7 */ [RET_K, 0, 0, SECCOMP_RET_ALLOW],
    /* 8 */ [LD_W_ABS, 0, 0, 16],
    /* 9 */ [JSET_K, 1, 0, CLONE_NEWUSER],
    /* 10 */ [RET_K, 0, 0, SECCOMP_RET_ALLOW],
    /* 11 */ [RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM],
    /* 12 */ [RET_K, 0, 0, SECCOMP_RET_ERRNO | ENOSYS],
  ];
  const out = new Uint8Array(prog.length * 8);
  const view = new DataView(out.buffer);
  prog.forEach(([code, jt, jf, k], i) => {
    view.setUint16(i * 8, code, true);
    view.setUint8(i * 8 + 2, jt);
    view.setUint8(i * 8 + 3, jf);
    view.setUint32(i * 8 + 4, k >>> 0, true);
  });
  return out;
}
