/**
 * A TEST STAND-IN for pytest, packed as a wheel, for the tests of pytest in the tab
 * (py-wheels.ts): pytest's real wheels come from Pyodide's package index, which these tests
 * cannot reach, so they serve this one instead, with a lock entry of their own whose sha256 is
 * this wheel's (the check really runs). It is NOT pytest: a module named `pytest` that imports
 * the `test_*.py` files under the working directory (or the paths given), calls their `test_*`
 * functions, and prints one summary line in pytest's shape (`== 1 failed, 2 passed in 0.01s ==`)
 * so the tally parser reads it. Its own first line says it is a stand-in.
 */
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** The stand-in's wheel file, as a lock entry names it. */
export const STAND_IN_WHEEL = 'pytest_test_stand_in-0.0.1-py3-none-any.whl';

const RUNNER = `"""A test stand-in for pytest, used by slmcode's tests (not pytest)."""
import os
import sys
import time
import traceback
import importlib.util


def _files(paths):
    for top in paths or ["."]:
        if os.path.isfile(top):
            yield top
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in sorted(filenames):
                if name.startswith("test_") and name.endswith(".py"):
                    yield os.path.join(dirpath, name)


def main(argv=None):
    args = [a for a in (sys.argv[1:] if argv is None else argv) if not a.startswith("-")]
    print("pytest test stand-in (slmcode's tests; not pytest)")
    began = time.time()
    passed, failed = 0, []
    sys.path.insert(0, os.getcwd())
    for path in _files(args):
        rel = os.path.relpath(path)
        spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for name in sorted(n for n in vars(module) if n.startswith("test_") and callable(getattr(module, n))):
            try:
                getattr(module, name)()
                passed += 1
            except Exception as exc:
                traceback.print_exc()
                failed.append(f"FAILED {rel}::{name} - {type(exc).__name__}: {exc}")
    for line in failed:
        print(line)
    parts = ([f"{len(failed)} failed"] if failed else []) + ([f"{passed} passed"] if passed else [])
    print(f"==== {', '.join(parts) or 'no tests ran'} in {time.time() - began:.2f}s ====")
    return 1 if failed else (0 if passed else 5)
`;

const FILES: Record<string, string> = {
  'pytest/__init__.py': RUNNER,
  'pytest/__main__.py': 'import sys\nfrom pytest import main\n\nsys.exit(main())\n',
  'pytest_test_stand_in-0.0.1.dist-info/METADATA':
    'Metadata-Version: 2.1\nName: pytest-test-stand-in\nVersion: 0.0.1\nSummary: A test stand-in for pytest (not pytest)\n',
  'pytest_test_stand_in-0.0.1.dist-info/WHEEL':
    'Wheel-Version: 1.0\nGenerator: slmcode-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n',
  'pytest_test_stand_in-0.0.1.dist-info/RECORD': '',
};

/** A zip archive of `files`, stored (no compression): what a wheel is. */
function zipStored(files: Record<string, string>): Uint8Array {
  const enc = new TextEncoder();
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [path, text] of Object.entries(files)) {
    const name = Buffer.from(enc.encode(path));
    const data = Buffer.from(enc.encode(text));
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, dir, end]));
}

/** The stand-in's wheel bytes and the lock entry (under the name `pytest`) that matches them. */
export function standInPytest(): {
  bytes: Uint8Array;
  lock: { pytest: { name: string; file_name: string; sha256: string; depends: string[] } };
} {
  const bytes = zipStored(FILES);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { bytes, lock: { pytest: { name: 'pytest', file_name: STAND_IN_WHEEL, sha256, depends: [] } } };
}
