/**
 * A run's change as a patch and its final files as a zip, on file sets like the captures give:
 * the patch applies to the start and gives the end (checked with jsdiff's own applyPatch, per
 * file), names what it could not compare, and the zip holds every text file under its folder.
 */
import { applyPatch, parsePatch } from 'diff';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { RunFiles } from './run-files.ts';
import { runPatch } from './run-patch.ts';
import { filesZip } from './run-zip.ts';

const files = (texts: Record<string, string>, skipped: RunFiles['skipped'] = []): RunFiles => ({
  texts: new Map(Object.entries(texts)),
  skipped,
});

const START = files({
  'src/strings.js': 'export function truncate(s, max) {\n  return s.slice(0, max) + "…";\n}\n',
  'README.md': '# tiny-utils\n',
  'old.txt': 'gone soon\n',
  'same.js': 'x\n',
});
const END = files(
  {
    'src/strings.js': 'export function truncate(s, max) {\n  return s.slice(0, max - 1) + "…";\n}\n',
    'README.md': '# tiny-utils\n',
    'new.txt': 'no newline at the end',
    'same.js': 'x\n',
  },
  [{ path: 'logo.png', why: 'binary' }],
);

describe('runPatch', () => {
  const patch = runPatch(START, END, 'tiny-utils (starter): the change of the run, start → after step 7');

  it('has one git-style section per changed file, and the comment names what was left out', () => {
    expect(patch.split('\n').slice(0, 3)).toEqual([
      '# tiny-utils (starter): the change of the run, start → after step 7',
      '# 3 files changed',
      '# not compared (binary): logo.png',
    ]);
    expect([...patch.matchAll(/^diff --git a\/(\S+) b\/\1$/gm)].map((m) => m[1])).toEqual([
      'new.txt',
      'old.txt',
      'src/strings.js',
    ]);
    expect(patch).toContain('diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n');
    expect(patch).toContain('diff --git a/old.txt b/old.txt\ndeleted file mode 100644\n--- a/old.txt\n+++ /dev/null\n');
    expect(patch).toContain('-  return s.slice(0, max) + "…";\n+  return s.slice(0, max - 1) + "…";\n');
    expect(patch).toContain('\\ No newline at end of file');
    expect(patch).not.toContain('same.js');
    expect(patch).not.toContain('README.md');
  });

  it('applied to the start, each file becomes its final text', () => {
    const parsed = parsePatch(patch);
    expect(parsed).toHaveLength(3);
    for (const p of parsed) {
      const path = (p.newFileName === '/dev/null' ? p.oldFileName : p.newFileName)!.replace(/^[ab]\//, '');
      const result = applyPatch(START.texts.get(path) ?? '', p);
      expect(result === false ? 'did not apply' : result).toBe(END.texts.get(path) ?? '');
    }
  });

  it('no change: only the comment', () => {
    expect(runPatch(START, START, 'nothing')).toBe('# nothing\n# 0 files changed\n');
  });
});

describe('filesZip', () => {
  it('holds every text file under the root folder, byte for byte', () => {
    const unzipped = unzipSync(filesZip(END, 'tiny-utils'));
    expect(Object.keys(unzipped).sort()).toEqual([
      'tiny-utils/README.md',
      'tiny-utils/new.txt',
      'tiny-utils/same.js',
      'tiny-utils/src/strings.js',
    ]);
    expect(strFromU8(unzipped['tiny-utils/src/strings.js']!)).toBe(END.texts.get('src/strings.js'));
  });
});
