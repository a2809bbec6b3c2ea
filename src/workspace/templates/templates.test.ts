/**
 * The bundled templates: the generated JSON matches the files it is built from, the hash is
 * the hash of those files, seeding writes them into a workspace, and the starter is the
 * project the playground promises (npm test on node:test, one failing test to fix).
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { collectTemplate, templateIds, templateJson, templateJsonPath } from '../../../scripts/build-templates.ts';
import { MemoryWorkspace } from '../memory/memory-workspace.ts';
import { decodeText } from '../../engine/text.ts';
import { STARTER_TEMPLATE, TEMPLATES, asTemplate, hashTemplateFiles, seedTemplate, templateById } from './index.ts';

describe('generated template JSON', () => {
  it.each(templateIds())(
    '%s.json is up to date with its files (regenerate: npx tsx scripts/build-templates.ts)',
    async (id) => {
      const expected = templateJson(await collectTemplate(id));
      expect(readFileSync(templateJsonPath(id), 'utf8')).toBe(expected);
    },
  );

  it('every template directory is bundled, and nothing else', () => {
    expect(TEMPLATES.map((t) => t.id).sort()).toEqual(templateIds());
  });
});

describe('hashTemplateFiles', () => {
  const base = { 'a.js': 'x\n', 'b/c.js': 'y\n' };
  it.each([
    ['the same files in another key order', { 'b/c.js': 'y\n', 'a.js': 'x\n' }, true],
    ['one changed byte', { 'a.js': 'x\n', 'b/c.js': 'z\n' }, false],
    ['a renamed file', { 'a.js': 'x\n', 'b/d.js': 'y\n' }, false],
    ['an extra empty file', { ...base, 'e.js': '' }, false],
  ])('%s → same hash: %s', async (_label, files, same) => {
    expect((await hashTemplateFiles(files)) === (await hashTemplateFiles(base))).toBe(same);
  });

  it('is a sha256 hex digest', async () => {
    expect(await hashTemplateFiles(base)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('the starter hash is the hash of its files', async () => {
    expect(STARTER_TEMPLATE.hash).toBe(await hashTemplateFiles(STARTER_TEMPLATE.files));
  });
});

describe('asTemplate', () => {
  const good = { id: 't', title: 'T', description: 'd', task: 'k', hash: 'sha256:0', files: { 'a.js': '' } };
  it.each([
    ['a missing id', { ...good, id: undefined }, /field id must be a string/],
    ['a numeric hash', { ...good, hash: 1 }, /field hash must be a string/],
    ['files that are not an object', { ...good, files: null }, /files must be an object/],
    ['a file that is not text', { ...good, files: { 'a.js': 3 } }, /file a\.js must be text/],
  ])('throws for %s', (_label, json, message) => {
    expect(() => asTemplate(json)).toThrow(message);
  });

  it('accepts a well-formed template', () => {
    expect(asTemplate(good).id).toBe('t');
  });
});

describe('seedTemplate', () => {
  it('writes every file, byte for byte, creating directories', async () => {
    const ws = new MemoryWorkspace();
    await seedTemplate(ws, STARTER_TEMPLATE);
    for (const [path, text] of Object.entries(STARTER_TEMPLATE.files)) {
      expect(decodeText(await ws.readFile(path))).toBe(text);
    }
    expect((await ws.readdir('')).map((e) => `${e.name}:${e.type}`)).toEqual([
      'README.md:file',
      'package.json:file',
      'src:dir',
      'test:dir',
    ]);
  });
});

describe('the starter project', () => {
  const files = STARTER_TEMPLATE.files;
  it('runs its tests with node --test', () => {
    expect(JSON.parse(files['package.json']!).scripts.test).toBe('node --test');
  });

  it('has node:test test files beside ES-module sources', () => {
    const tests = Object.keys(files).filter((p) => /^test\/.*\.test\.js$/.test(p));
    expect(tests.length).toBeGreaterThanOrEqual(2);
    for (const p of tests) expect(files[p]).toContain("from 'node:test'");
    expect(JSON.parse(files['package.json']!).type).toBe('module');
  });

  it('carries the deliberate truncate bug (an ellipsis past the limit)', () => {
    expect(files['src/strings.js']).toContain("return text.slice(0, max) + '…';");
  });

  /** Writes the files to a temp dir and runs `node --test` there, as the project's own npm test would. */
  function runTests(patch: Record<string, string>): { pass: number; fail: number } {
    const dir = mkdtempSync(join(tmpdir(), 'starter-'));
    try {
      for (const [path, text] of Object.entries({ ...files, ...patch })) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      const out = spawnSync(process.execPath, ['--test'], { cwd: dir, encoding: 'utf8' }).stdout;
      const count = (k: string) => Number(new RegExp(`^# ${k} (\\d+)$`, 'm').exec(out)?.[1] ?? NaN);
      return { pass: count('pass'), fail: count('fail') };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const fixed = files['src/strings.js']!.replace('text.slice(0, max) +', 'text.slice(0, max - 1) +');
  it.each([
    ['as shipped', {}, 1],
    ['after the one-line fix', { 'src/strings.js': fixed }, 0],
  ])('node --test %s fails %i test(s)', (_label, patch, failing) => {
    const r = runTests(patch);
    expect(r.fail).toBe(failing);
    expect(r.pass + r.fail).toBe(9);
  });

  it('is found by id, and an unknown id is undefined', () => {
    expect(templateById('starter')).toBe(STARTER_TEMPLATE);
    expect(templateById('nope')).toBeUndefined();
  });
});
