/**
 * pytest's wheels for the tab (py-wheels.ts): what the lock says to fetch, each wheel checked
 * against the lock's sha256 before anything uses it, kept for the page's lifetime, and what the
 * page may name as the index. Fetch is a fake here (a map of URLs to bytes); the sha256 is
 * WebCrypto's, computed for real. The lock of the Pyodide this project ships is read as well.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { onLoad, type LoadTiming } from '../../engine/lazy-load.ts';
import {
  closure,
  fetchWheels,
  packageIndexFrom,
  PYODIDE_INDEX_URL,
  WheelCache,
  WheelError,
  type LockPackage,
} from './py-wheels.ts';
import { runsPytest } from './py-sandbox.ts';
import { PYODIDE_PYTHON } from './py-sandbox-host.ts';

const BASE = 'http://index.test/pyodide/';
const bytesOf = (text: string) => new TextEncoder().encode(text);
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** A lock of packages whose wheels hold `name`'s own text; `depends` by name. */
function lockOf(deps: Record<string, string[]>): { text: string; files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>();
  const packages: Record<string, LockPackage> = {};
  for (const [name, depends] of Object.entries(deps)) {
    const file_name = `${name}-1.0-py3-none-any.whl`;
    const bytes = bytesOf(`wheel of ${name}`);
    files.set(`${BASE}${file_name}`, bytes);
    packages[name] = { name, file_name, sha256: sha(bytes), depends };
  }
  return { text: JSON.stringify({ packages }), files };
}

/** A fetch that answers from `files` and counts its requests; an unknown URL answers 404. */
function fakeFetch(files: Map<string, Uint8Array>) {
  const asked: string[] = [];
  const fn = (async (input: RequestInfo | URL) => {
    const url = String(input);
    asked.push(url);
    const b = files.get(url);
    return b ? new Response(b.slice()) : new Response('no such file', { status: 404 });
  }) as typeof fetch;
  return { fn, asked };
}

const offline = (async () => {
  throw new TypeError('Failed to fetch');
}) as typeof fetch;

async function rejection(p: Promise<unknown>): Promise<WheelError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(WheelError);
  return e as WheelError;
}

const PYTEST_LIKE = { pytest: ['pluggy', 'attrs'], attrs: ['six'], pluggy: [], six: [] };

describe('fetchWheels: the lock says what to fetch, and each wheel must match it', () => {
  it('fetches the package and its dependencies once each, dependencies first, from the base URL', async () => {
    const lock = lockOf(PYTEST_LIKE);
    const f = fakeFetch(lock.files);
    const set = await fetchWheels(lock.text, 'pytest', { baseUrl: BASE }, f.fn);
    expect(set.wheels.map((w) => w.file.split('-')[0])).toEqual(['pluggy', 'six', 'attrs', 'pytest']);
    expect(f.asked.sort()).toEqual([...lock.files.keys()].sort());
    expect(set.bytes).toBe([...lock.files.values()].reduce((n, b) => n + b.length, 0));
  });

  it('refuses a wheel whose bytes are not the ones the lock names, naming the file', async () => {
    const lock = lockOf(PYTEST_LIKE);
    const tampered = new Map(lock.files);
    tampered.set(`${BASE}six-1.0-py3-none-any.whl`, bytesOf('wheel of six, changed'));
    const e = await rejection(fetchWheels(lock.text, 'pytest', { baseUrl: BASE }, fakeFetch(tampered).fn));
    expect(e.kind).toBe('mismatch');
    expect(e.message).toContain('six-1.0-py3-none-any.whl was refused: the download did not match the lock');
  });

  it('says which dependency the lock does not list, and which package needs it', async () => {
    const lock = lockOf({ pytest: ['pluggy'], pluggy: ['iniconfig'] });
    const e = await rejection(fetchWheels(lock.text, 'pytest', { baseUrl: BASE }, fakeFetch(lock.files).fn));
    expect(e.kind).toBe('missing');
    expect(e.message).toContain('pluggy depends on iniconfig, which');
    const none = await rejection(fetchWheels(lock.text, 'numpy', { baseUrl: BASE }, fakeFetch(lock.files).fn));
    expect(none.message).toContain("numpy is not in Pyodide 314.0.8's package lock");
  });

  it.each([
    ['the network is down', offline, 'could not be reached (Failed to fetch)'],
    ['the index answers 404', fakeFetch(new Map()).fn, 'answered HTTP 404'],
  ])('offline when %s', async (_why, fn, says) => {
    const lock = lockOf(PYTEST_LIKE);
    const e = await rejection(fetchWheels(lock.text, 'pytest', { baseUrl: BASE }, fn));
    expect(e.kind).toBe('offline');
    expect(e.message).toContain(says);
  });

  it("a lock entry the index names replaces the shipped lock's, and its sha256 is checked", async () => {
    const lock = lockOf(PYTEST_LIKE);
    const standIn = bytesOf('a test stand-in');
    const entry = { name: 'pytest', file_name: 'stand_in-0.1-py3-none-any.whl', sha256: sha(standIn), depends: [] };
    const files = new Map([[`${BASE}${entry.file_name}`, standIn]]);
    const set = await fetchWheels(lock.text, 'pytest', { baseUrl: BASE, lock: { pytest: entry } }, fakeFetch(files).fn);
    expect(set.wheels.map((w) => w.file)).toEqual([entry.file_name]);
    const wrong = { ...entry, sha256: sha(bytesOf('something else')) };
    const e = await rejection(
      fetchWheels(lock.text, 'pytest', { baseUrl: BASE, lock: { pytest: wrong } }, fakeFetch(files).fn),
    );
    expect(e.kind).toBe('mismatch');
  });
});

describe('closure', () => {
  it("pytest in the shipped Pyodide's lock: twelve pure-Python wheels, each with a sha256", () => {
    const path = createRequire(import.meta.url).resolve('pyodide/pyodide-lock.json');
    const packages = new Map(
      Object.entries((JSON.parse(readFileSync(path, 'utf8')) as { packages: Record<string, LockPackage> }).packages),
    );
    const all = closure(packages, 'pytest');
    // The Python a tab step records as its runtime is the one this lock is for.
    expect((JSON.parse(readFileSync(path, 'utf8')) as { info: { python: string } }).info.python).toBe(PYODIDE_PYTHON);
    expect(all.at(-1)?.name).toBe('pytest');
    expect(all.map((p) => p.name)).toContain('pyparsing'); // setuptools' own dependency
    expect(all).toHaveLength(12);
    for (const p of all) {
      expect(p.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(p.file_name).toMatch(/-none-any\.whl$/);
    }
  });

  it('lists every package reachable once, after everything it depends on (any acyclic lock)', () => {
    const dag = fc
      .integer({ min: 1, max: 12 })
      .chain((n) =>
        fc.tuple(...Array.from({ length: n }, (_, i) => fc.subarray(Array.from({ length: i }, (_, j) => `p${j}`)))),
      );
    fc.assert(
      fc.property(dag, (deps) => {
        const packages = new Map(
          deps.map((d, i): [string, LockPackage] => [
            `p${i}`,
            { name: `p${i}`, file_name: `p${i}.whl`, sha256: '', depends: d },
          ]),
        );
        const root = `p${deps.length - 1}`;
        const order = closure(packages, root).map((p) => p.name);
        const reach = new Set<string>();
        const walk = (n: string) => (reach.has(n) ? undefined : (reach.add(n), packages.get(n)!.depends.forEach(walk)));
        walk(root);
        expect(new Set(order)).toEqual(reach);
        expect(order).toHaveLength(reach.size);
        for (const [i, n] of order.entries())
          for (const d of packages.get(n)!.depends) expect(order.indexOf(d)).toBeLessThan(i);
      }),
    );
  });
});

describe('WheelCache: fetched once for the page, timed once', () => {
  it('the first ask fetches and is heard as a first-use load; the next fetches nothing', async () => {
    const lock = lockOf(PYTEST_LIKE);
    const f = fakeFetch(lock.files);
    const cache = new WheelCache(() => ({ baseUrl: BASE }), f.fn);
    const loads: LoadTiming[] = [];
    const stop = onLoad((l) => loads.push(l));
    try {
      const first = await cache.get(lock.text, 'pytest');
      const again = await cache.get(lock.text, 'pytest');
      expect(again).toBe(first);
    } finally {
      stop();
    }
    expect(f.asked).toHaveLength(4);
    expect(loads.map((l) => l.what)).toEqual([
      `4 wheels (0.0 MB) for pytest from ${BASE}, each matching pyodide-lock.json's sha256`,
    ]);
  });

  it('a failed fetch is not kept: the next ask tries again', async () => {
    const lock = lockOf(PYTEST_LIKE);
    let up = false;
    const f = fakeFetch(lock.files);
    const cache = new WheelCache(() => ({ baseUrl: BASE }), ((u: RequestInfo | URL) =>
      up ? f.fn(u) : offline(u)) as typeof fetch);
    expect((await rejection(cache.get(lock.text, 'pytest'))).kind).toBe('offline');
    up = true;
    expect((await cache.get(lock.text, 'pytest')).wheels).toHaveLength(4);
  });
});

describe('packageIndexFrom: what the page may name', () => {
  const good = { file_name: 'pytest-0.1-py3-none-any.whl', sha256: 'a'.repeat(64), depends: [] };
  it.each<[string, unknown, unknown]>([
    ['nothing: Pyodide’s own index', undefined, { baseUrl: PYODIDE_INDEX_URL }],
    ['not an http(s) URL', { baseUrl: 'file:///etc/' }, { baseUrl: PYODIDE_INDEX_URL }],
    ['a base without its slash gets one', { baseUrl: 'http://127.0.0.1:9/x' }, { baseUrl: 'http://127.0.0.1:9/x/' }],
    [
      'a well-formed lock entry is kept, under its key',
      { baseUrl: BASE, lock: { pytest: good } },
      { baseUrl: BASE, lock: { pytest: { name: 'pytest', ...good } } },
    ],
    [
      'a sha256 that is not 64 hex digits is dropped',
      { baseUrl: BASE, lock: { pytest: { ...good, sha256: 'abc' } } },
      { baseUrl: BASE, lock: {} },
    ],
    [
      'a file name with a path is dropped',
      { baseUrl: BASE, lock: { pytest: { ...good, file_name: '../x.whl' } } },
      { baseUrl: BASE, lock: {} },
    ],
    [
      'depends that are not names are dropped',
      { baseUrl: BASE, lock: { pytest: { ...good, depends: [1] } } },
      { baseUrl: BASE, lock: {} },
    ],
  ])('%s', (_rule, given, expected) => {
    expect(packageIndexFrom(given)).toEqual(expected);
  });
  it('the default index is the one Pyodide 314.0.8 loads its packages from', () => {
    expect(PYODIDE_INDEX_URL).toBe('https://cdn.jsdelivr.net/pyodide/v314.0.8/full/');
  });
});

describe('runsPytest: which python3 command lines ask for pytest', () => {
  it.each<[string[], boolean]>([
    [['-m', 'pytest'], true],
    [['-m', 'pytest', '-k', 'add'], true],
    [['-mpytest'], true],
    [['-B', '-W', 'ignore', '-m', 'pytest'], true],
    [['-m', 'unittest'], false],
    [['test_pytest.py', '-m', 'pytest'], false],
    [['-c', 'import pytest', '-m', 'pytest'], false],
    [['-', '-m', 'pytest'], false],
    [[], false],
  ])('%j → %s', (args, want) => {
    expect(runsPytest(args)).toBe(want);
  });
});
