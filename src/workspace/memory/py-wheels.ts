/**
 * Packages from Pyodide's package index for the tab's Python (`pytest`): the page fetches them,
 * never the sandbox frame, whose policy forbids every connection (`connect-src 'none'`). What
 * to fetch comes from the `pyodide-lock.json` the playground ships with Pyodide (the npm
 * package's own lock): a package's wheel file, its sha256 and what it depends on. Every wheel
 * is checked against that sha256 (WebCrypto) before anything uses it; a wheel that does not
 * match is refused. The verified wheels are kept for the page's lifetime and handed to each
 * job's worker, which unpacks them into Pyodide's site-packages (py-sandbox-runtime.js).
 */
import { timedLoad } from '../../engine/lazy-load.ts';
import { PYODIDE_VERSION } from './py-sandbox-host.ts';

/** Pyodide's own package index for this version (its loader's default CDN). */
export const PYODIDE_INDEX_URL = `https://cdn.jsdelivr.net/pyodide/v${PYODIDE_VERSION}/full/`;

/** One package as pyodide-lock.json lists it (the fields used here). */
export interface LockPackage {
  readonly name: string;
  readonly file_name: string;
  readonly sha256: string;
  readonly depends: readonly string[];
}

/** Where wheels come from: the index's base URL and, for tests, lock entries that replace the shipped lock's of the same name. */
export interface PackageIndexConfig {
  readonly baseUrl: string;
  readonly lock?: Readonly<Record<string, LockPackage>>;
}

/** A verified wheel: its file name and bytes. */
export interface Wheel {
  readonly file: string;
  readonly bytes: ArrayBuffer;
}

/** What one package needs, fetched and verified. */
export interface WheelSet {
  readonly wheels: readonly Wheel[];
  readonly bytes: number;
}

/**
 * Why a package could not be had: `offline` (the index could not be reached, or answered an
 * error), `mismatch` (a wheel's bytes are not the ones the lock names), `missing` (the lock
 * lists no such package, or a dependency it names is not in it).
 */
export class WheelError extends Error {
  constructor(
    readonly kind: 'offline' | 'mismatch' | 'missing',
    message: string,
  ) {
    super(message);
    this.name = 'WheelError';
  }
}

/** The packages of pyodide-lock.json's text, by name, with `config.lock`'s entries over them. */
export function lockPackages(lockText: string, config: PackageIndexConfig): Map<string, LockPackage> {
  const parsed = JSON.parse(lockText) as { packages?: Record<string, LockPackage> };
  return new Map(Object.entries({ ...parsed.packages, ...config.lock }));
}

/** `name` and everything it depends on, dependencies first, each once. */
export function closure(packages: ReadonlyMap<string, LockPackage>, name: string): LockPackage[] {
  const order: LockPackage[] = [];
  const seen = new Set<string>();
  const visit = (n: string, by: string | null) => {
    if (seen.has(n)) return;
    seen.add(n);
    const pkg = packages.get(n);
    if (!pkg)
      throw new WheelError(
        'missing',
        by === null
          ? `${n} is not in Pyodide ${PYODIDE_VERSION}'s package lock (pyodide-lock.json)`
          : `${by} depends on ${n}, which Pyodide ${PYODIDE_VERSION}'s package lock (pyodide-lock.json) does not list`,
      );
    for (const d of pkg.depends) visit(d, n);
    order.push(pkg);
  };
  visit(name, null);
  return order;
}

/** The hex sha256 of `bytes`. */
async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Fetches one wheel and checks it against the lock; throws a WheelError saying what went wrong. */
async function fetchVerified(pkg: LockPackage, baseUrl: string, fetchFn: typeof fetch): Promise<Wheel> {
  const url = new URL(pkg.file_name, baseUrl).href;
  let res: Response;
  try {
    res = await fetchFn(url);
  } catch (e) {
    throw new WheelError('offline', `${url} could not be reached (${(e as Error).message})`);
  }
  if (!res.ok) throw new WheelError('offline', `${url} answered HTTP ${res.status}`);
  let bytes: ArrayBuffer;
  try {
    bytes = await res.arrayBuffer();
  } catch (e) {
    throw new WheelError('offline', `${url} broke off while downloading (${(e as Error).message})`);
  }
  const got = await sha256Hex(bytes);
  if (got !== pkg.sha256.toLowerCase())
    throw new WheelError(
      'mismatch',
      `${pkg.file_name} was refused: the download did not match the lock (pyodide-lock.json names sha256 ${pkg.sha256}, ` +
        `the ${bytes.byteLength} bytes from ${url} hash to ${got}); nothing of it was installed`,
    );
  return { file: pkg.file_name, bytes };
}

/** `name` and its dependencies from the index, each verified; throws a WheelError. */
export async function fetchWheels(
  lockText: string,
  name: string,
  config: PackageIndexConfig,
  fetchFn: typeof fetch = fetch,
): Promise<WheelSet> {
  const wanted = closure(lockPackages(lockText, config), name);
  const wheels = await Promise.all(wanted.map((pkg) => fetchVerified(pkg, config.baseUrl, fetchFn)));
  return { wheels, bytes: wheels.reduce((n, w) => n + w.bytes.byteLength, 0) };
}

/** What a first fetch loaded, in the words a step's timing uses (lazy-load.ts): "loaded <this> in 1.2 s". */
export function wheelsLoaded(name: string, set: WheelSet, baseUrl: string): string {
  const n = set.wheels.length;
  const mb = (set.bytes / 1e6).toFixed(1);
  return `${n} wheel${n === 1 ? '' : 's'} (${mb} MB) for ${name} from ${baseUrl}, each matching pyodide-lock.json's sha256`;
}

/**
 * The page's wheels, fetched on the first ask for a package and kept for the page's lifetime;
 * a fetch that failed is tried again on the next ask (the connection may be back). The first
 * fetch of each package is timed as a first-use load.
 */
export class WheelCache {
  readonly #sets = new Map<string, Promise<WheelSet>>();

  /** `config`: read at each first fetch (the page may name the index after this is made). */
  constructor(
    private readonly config: () => PackageIndexConfig,
    private readonly fetchFn: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  /** `name`'s wheels and its dependencies', verified against the lock in `lockText`. */
  get(lockText: string, name: string): Promise<WheelSet> {
    let set = this.#sets.get(name);
    if (!set) {
      const config = this.config();
      set = timedLoad(
        (s) => wheelsLoaded(name, s, config.baseUrl),
        () => fetchWheels(lockText, name, config, this.fetchFn),
      ).catch((e: unknown) => {
        this.#sets.delete(name);
        throw e;
      });
      this.#sets.set(name, set);
    }
    return set;
  }
}

const HEX64 = /^[0-9a-f]{64}$/i;

/** A lock entry as the page may give one: every field checked, since it crosses from the page. */
function lockEntry(name: string, v: unknown): LockPackage | null {
  const e = v as Partial<Record<keyof LockPackage, unknown>> | null;
  if (typeof e !== 'object' || e === null) return null;
  const { file_name, sha256, depends } = e;
  if (typeof file_name !== 'string' || !/^[\w.+-]+\.whl$/.test(file_name)) return null;
  if (typeof sha256 !== 'string' || !HEX64.test(sha256)) return null;
  if (!Array.isArray(depends) || !depends.every((d) => typeof d === 'string')) return null;
  return { name, file_name, sha256, depends };
}

/**
 * The package index the page names (`window.slmcodePackageIndex`: `{ baseUrl, lock? }`, which
 * tests set to a loopback server and their own lock entries), or Pyodide's own when it names
 * none or something malformed.
 */
export function packageIndexFrom(value: unknown): PackageIndexConfig {
  const v = value as { baseUrl?: unknown; lock?: unknown } | null | undefined;
  if (typeof v !== 'object' || v === null || typeof v.baseUrl !== 'string' || !/^https?:\/\//.test(v.baseUrl))
    return { baseUrl: PYODIDE_INDEX_URL };
  const baseUrl = v.baseUrl.endsWith('/') ? v.baseUrl : `${v.baseUrl}/`;
  if (typeof v.lock !== 'object' || v.lock === null) return { baseUrl };
  const lock: Record<string, LockPackage> = {};
  for (const [name, entry] of Object.entries(v.lock)) {
    const e = lockEntry(name, entry);
    if (e) lock[name] = e;
  }
  return { baseUrl, lock };
}

let tabIndex: PackageIndexConfig = { baseUrl: PYODIDE_INDEX_URL };

/** Names the index this thread's tab fetches from (the page says it when it attaches the sandbox frame). */
export function usePackageIndex(value: unknown): void {
  tabIndex = packageIndexFrom(value);
}

/** The tab's wheels: fetched by this thread (the engine worker, never the sandbox frame), kept for the page's lifetime. */
export const tabWheels = new WheelCache(() => tabIndex);
