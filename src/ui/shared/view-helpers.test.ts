/** Result status, note explanations and tree rows: the console's pure view logic. */
import { describe, expect, it } from 'vitest';
import type { Note, ToolResult } from '../../worker/client.ts';
import { NOTE_EXPLANATIONS, explainNote, resultStatus } from './explain.ts';
import { formatSize, removedPaths, treeRows } from './tree-rows.ts';

const result = (ok: boolean, notes: Note[]): ToolResult => ({ ok, text: '', notes, changes: [] });

describe('resultStatus', () => {
  it.each([
    ['ok', result(true, [{ kind: 'read-window', text: 'w' }]), 'ok'],
    ['a refusal note', result(false, [{ kind: 'refusal', text: 'r', detail: 'harness-dir' }]), 'refused'],
    ['a failure without a refusal', result(false, [{ kind: 'schema', text: 's' }]), 'failed'],
  ])('%s → %s', (_label, r, status) => {
    expect(resultStatus(r)).toBe(status);
  });
});

describe('note explanations', () => {
  it.each(Object.entries(NOTE_EXPLANATIONS))('%s has a short label and a one-line why', (_kind, e) => {
    expect(e.label.length).toBeLessThanOrEqual(16);
    expect(e.why).not.toContain('\n');
    expect(e.why.length).toBeLessThanOrEqual(160);
    expect(e.why).toMatch(/\.$/);
  });

  it('labels an unknown kind with its name', () => {
    expect(explainNote({ kind: 'brand-new', text: 'something new' })).toEqual({
      label: 'brand-new',
      tone: 'info',
      why: 'Reported by the engine.',
    });
  });
});

describe('treeRows', () => {
  const entries = [
    { path: 'src', type: 'dir' as const, size: 0 },
    { path: 'src/a.js', type: 'file' as const, size: 3 },
    { path: 'src/b.js', type: 'file' as const, size: 3 },
    { path: 'z.js', type: 'file' as const, size: 1 },
  ];
  const changes = [
    { path: 'src/a.js', before: 'x', after: 'y' },
    { path: 'z.js', before: null, after: 'z' },
    { path: 'old.js', before: 'o', after: null },
  ];

  it('indents by depth, labels by name, marks what the last call changed', () => {
    expect(treeRows(entries, changes).map((r) => [r.depth, r.name, r.change])).toEqual([
      [0, 'src', null],
      [1, 'a.js', 'modified'],
      [1, 'b.js', null],
      [0, 'z.js', 'created'],
    ]);
    expect(removedPaths(changes)).toEqual(['old.js']);
  });

  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1536, '1.5 KB'],
    [3 * 1024 * 1024, '3.0 MB'],
  ])('formatSize(%i) = %s', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });
});
