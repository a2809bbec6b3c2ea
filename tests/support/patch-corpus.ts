/**
 * The ws_patch corpus, built from the edit corpora so every drift small models make is seen
 * through every patch form:
 * - each apply case of edits-dev.jsonl as a unified diff whose `-` lines are the drifted
 *   old_str and `+` lines its new_str, the @@ line off by 0–20 lines (`udiff`) or by 21–80
 *   (`udiff-far`, found by searching the whole file); as a diff with context lines
 *   (`context`, from jsdiff's structuredPatch) and the same with the context prefix lost
 *   (`context-noprefix`); as a SEARCH/REPLACE block (`sr`); fenced with prose before
 *   (`fenced`); with prose after the hunk (`prose`); and in a two-hunk diff (`two-hunk-bad`)
 *   or a two-file diff (`two-file-bad`) whose other hunk matches nothing — expected: refused,
 *   nothing written;
 * - each refuse case as a diff without line numbers (`udiff-anchorless`) and as a block
 *   (`sr`): a duplicate is ambiguous only when nothing says which copy is meant;
 * - each exact duplicate as a diff whose @@ line names one copy (`udiff-dup-anchored`):
 *   applied there when no other copy lies within the anchor window, refused otherwise;
 * - the ws_patch cases of edits-peers.jsonl as they are.
 * Offsets are pseudo-random but fixed (a hash of the case id), so runs compare.
 */
import { structuredPatch } from 'diff';
import { Engine } from '../../src/engine/engine.ts';
import type { ToolResult } from '../../src/engine/result.ts';
import { decodeText, encodeText } from '../../src/engine/text.ts';
import { CODING_TOOLS } from '../../src/engine/tools/index.ts';
import { AnchorWindowLines } from '../../src/engine/patch/index.ts';
import { detectEol } from '../../src/engine/ladder/index.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { hasCorpus, readJsonl } from './corpus.ts';

export interface PatchCase {
  readonly id: string;
  /** How the edit was rendered (udiff, sr, fenced, …, or peer/<name>). */
  readonly rendering: string;
  /** The drift of the edit (edits-dev's `drift`, or the peer's kind). */
  readonly drift: string;
  readonly file: string;
  readonly file_text: string;
  /** More files in the workspace (path → text), for multi-file diffs. */
  readonly extra_files?: Readonly<Record<string, string>>;
  readonly args: { readonly path?: string; readonly patch: string };
  readonly expect: 'apply' | 'refuse';
  readonly expected_text?: string;
  readonly expected_alt?: readonly string[];
  /** What the patch's hunks search for, when known: an inexact apply must name its rung. */
  readonly old_texts?: readonly string[];
}

interface DevCase {
  readonly id: string;
  readonly file: string;
  readonly file_text: string;
  readonly old_str: string;
  readonly new_str: string;
  readonly drift: string;
  readonly expect: 'apply' | 'refuse';
  readonly expected_text: string | null;
  readonly expected_alt: readonly string[] | null;
  readonly start_line: number;
}

interface PeerCase {
  readonly id: string;
  readonly peer: string;
  readonly kind: string;
  readonly file: string;
  readonly file_text: string;
  readonly old_str?: string;
  readonly tool: string;
  readonly args: { path?: string; patch: string };
  readonly expect: 'apply' | 'refuse';
  readonly expected_text?: string | null;
  readonly expected_alt?: readonly string[] | null;
}

/** FNV-1a: a fixed pseudo-random number per case id and purpose. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** An offset in [-20, 20] (near) or ±[21, 80] (far), never putting the @@ line before line 1. */
export function headerOffset(id: string, far: boolean, startLine: number): number {
  const h = hash(`${id}#${far ? 'far' : 'near'}`);
  const off = far
    ? (h % 2 ? 1 : -1) * (AnchorWindowLines + 1 + ((h >>> 1) % 60))
    : (h % (2 * AnchorWindowLines + 1)) - AnchorWindowLines;
  return startLine + off >= 1 ? off : -off;
}

const lines = (s: string): string[] => s.replace(/\r\n/g, '\n').split('\n');

function header(file: string): string {
  return `--- a/${file}\n+++ b/${file}\n`;
}

/** One hunk: every old line removed, every new line added. */
function minusPlus(c: DevCase, at: number | undefined): string {
  const o = c.old_str === '' ? [] : lines(c.old_str);
  const n = c.new_str === '' ? [] : lines(c.new_str);
  const nums = at === undefined ? '@@ @@' : `@@ -${at},${o.length} +${at},${n.length} @@`;
  return `${nums}\n${o.map((l) => `-${l}`).join('\n')}${o.length ? '\n' : ''}${n.map((l) => `+${l}`).join('\n')}\n`;
}

/**
 * Hunks with context lines, from jsdiff's own diff of old_str against new_str, placed at
 * `at`, with each hunk's old side (what it searches for).
 */
function withContext(c: DevCase, at: number, dropPrefix: boolean): { patch: string; oldTexts: string[] } {
  // A final newline on both sides keeps jsdiff from marking the fragment's end as the file's end.
  const p = structuredPatch('a', 'b', `${c.old_str}\n`, `${c.new_str}\n`, '', '', { context: 3 });
  const out: string[] = [];
  const oldTexts: string[] = [];
  for (const h of p.hunks) {
    out.push(`@@ -${at + h.oldStart - 1},${h.oldLines} +${at + h.newStart - 1},${h.newLines} @@`);
    const body = h.lines.map((raw) => raw.replace(/\r$/, ''));
    oldTexts.push(
      body
        .filter((l) => l[0] !== '+')
        .map((l) => l.slice(1))
        .join('\n'),
    );
    const lastChange = body.reduce((k, l, i) => (l[0] === '-' || l[0] === '+' ? i : k), -1);
    body.forEach((l, i) => {
      // The model that forgets a context line's leading space, where a diff line still follows it
      // (trailing unprefixed lines read as prose) and the line stays unmistakable.
      out.push(
        dropPrefix && i < lastChange && l.startsWith(' ') && /^[A-Za-z_#/({}]/.test(l.slice(1)) ? l.slice(1) : l,
      );
    });
  }
  return { patch: `${out.join('\n')}\n`, oldTexts };
}

/** A line of a SEARCH/REPLACE block that would read as a marker is escaped. */
function blockLine(l: string): string {
  return /^(<{5,9}|={5,9}\s*$|>{5,9})/.test(l) ? `\\${l}` : l;
}

function searchReplace(c: DevCase): string {
  const body = (s: string) => (s === '' ? '' : `${lines(s).map(blockLine).join('\n')}\n`);
  return `<<<<<<< SEARCH\n${body(c.old_str)}=======\n${body(c.new_str)}>>>>>>> REPLACE\n`;
}

/**
 * A hunk that matches nothing: three non-blank lines of the file far from the edit, each
 * changed at its end so no rung (all of them compare whole lines) can take them for the file's.
 */
function badHunk(c: DevCase): { at: number; text: string } | undefined {
  const fl = lines(c.file_text);
  const n = fl.length;
  const from = hash(`${c.id}#bad`) % Math.max(1, n);
  for (let k = 0; k < n; k++) {
    const i = (from + k) % n;
    if (i + 3 > n || Math.abs(i + 1 - c.start_line) < 30) continue;
    const picked = fl.slice(i, i + 3);
    if (picked.some((l) => l.trim() === '')) continue;
    const minus = picked.map((l) => `-${l} /* qzx */`);
    const plus = picked.map((l) => `+${l} /* qzx2 */`);
    return { at: i + 1, text: `@@ -${i + 1},3 +${i + 1},3 @@\n${minus.join('\n')}\n${plus.join('\n')}\n` };
  }
  return undefined;
}

/** Whole-line places of `needle` in `text` (1-based first lines). */
function wholeLinePlaces(text: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
    const before = text.slice(text.lastIndexOf('\n', i - 1) + 1, i);
    const nl = text.indexOf('\n', i + needle.length);
    const after = text.slice(i + needle.length, nl < 0 ? text.length : nl);
    if (before.trim() === '' && after.trim() === '') at.push(text.slice(0, i).split('\n').length);
  }
  return at;
}

function applyRenderings(c: DevCase): PatchCase[] {
  const base = {
    drift: c.drift,
    file: c.file,
    file_text: c.file_text,
    expect: 'apply' as const,
    expected_text: c.expected_text!,
    expected_alt: c.expected_alt ?? [],
    old_texts: [c.old_str],
  };
  const near = c.start_line + headerOffset(c.id, false, c.start_line);
  const far = c.start_line + headerOffset(c.id, true, c.start_line);
  const udiff = header(c.file) + minusPlus(c, near);
  const ctx = withContext(c, near, false);
  const noPrefix = withContext(c, near, true);
  const out: PatchCase[] = [
    { ...base, id: `udiff/${c.id}`, rendering: 'udiff', args: { patch: udiff } },
    { ...base, id: `udiff-far/${c.id}`, rendering: 'udiff-far', args: { patch: header(c.file) + minusPlus(c, far) } },
    {
      ...base,
      id: `context/${c.id}`,
      rendering: 'context',
      args: { patch: header(c.file) + ctx.patch },
      old_texts: ctx.oldTexts,
    },
    {
      ...base,
      id: `context-noprefix/${c.id}`,
      rendering: 'context-noprefix',
      args: { patch: header(c.file) + noPrefix.patch },
      old_texts: noPrefix.oldTexts,
    },
    { ...base, id: `sr/${c.id}`, rendering: 'sr', args: { path: c.file, patch: searchReplace(c) } },
    {
      ...base,
      id: `fenced/${c.id}`,
      rendering: 'fenced',
      args: { patch: `Here is the patch:\n\`\`\`diff\n${udiff}\`\`\`\n` },
    },
    {
      ...base,
      id: `prose/${c.id}`,
      rendering: 'prose',
      args: { patch: `${udiff}This makes the change and keeps the rest as it was.\n` },
    },
  ];
  const bad = badHunk(c);
  if (bad) {
    const good = { at: near, text: minusPlus(c, near) };
    const hunks = [good, bad].sort((a, b) => a.at - b.at).map((h) => h.text);
    const refuse = { drift: c.drift, file: c.file, file_text: c.file_text, expect: 'refuse' as const };
    out.push({
      ...refuse,
      id: `two-hunk-bad/${c.id}`,
      rendering: 'two-hunk-bad',
      args: { patch: header(c.file) + hunks.join('') },
    });
    const other = `other/${c.file}`;
    out.push({
      ...refuse,
      id: `two-file-bad/${c.id}`,
      rendering: 'two-file-bad',
      extra_files: { [other]: c.file_text },
      args: { patch: `${udiff}${header(other)}${bad.text}` },
    });
  }
  return out;
}

function refuseRenderings(c: DevCase): PatchCase[] {
  const base = { drift: c.drift, file: c.file, file_text: c.file_text, expect: 'refuse' as const };
  const out: PatchCase[] = [
    {
      ...base,
      id: `udiff-anchorless/${c.id}`,
      rendering: 'udiff-anchorless',
      args: { patch: header(c.file) + minusPlus(c, undefined) },
    },
    { ...base, id: `sr/${c.id}`, rendering: 'sr', args: { path: c.file, patch: searchReplace(c) } },
  ];
  if (c.drift === 'dup_exact') {
    // The @@ line names the copy at start_line: applied there unless another copy lies within the window.
    const places = wholeLinePlaces(c.file_text, c.old_str);
    const span = lines(c.old_str).length;
    const crowded = places.some(
      (p) =>
        p !== c.start_line &&
        p >= c.start_line - AnchorWindowLines &&
        p + span - 1 <= c.start_line + span - 1 + AnchorWindowLines,
    );
    const patch = header(c.file) + minusPlus(c, c.start_line);
    const at =
      c.file_text
        .split('\n')
        .slice(0, c.start_line - 1)
        .join('\n').length + (c.start_line > 1 ? 1 : 0);
    if (crowded)
      out.push({ ...base, id: `udiff-dup-anchored/${c.id}`, rendering: 'udiff-dup-anchored', args: { patch } });
    else if (c.file_text.startsWith(c.old_str, at)) {
      const expected = c.file_text.slice(0, at) + c.new_str + c.file_text.slice(at + c.old_str.length);
      out.push({
        ...base,
        id: `udiff-dup-anchored/${c.id}`,
        rendering: 'udiff-dup-anchored',
        args: { patch },
        expect: 'apply',
        expected_text: expected,
        old_texts: [c.old_str],
      });
    }
  }
  return out;
}

function peerCase(p: PeerCase): PatchCase {
  return {
    id: `peer/${p.id}`,
    rendering: `peer/${p.peer}`,
    drift: p.kind,
    file: p.file,
    file_text: p.file_text,
    args: p.args,
    expect: p.expect,
    ...(p.expected_text != null ? { expected_text: p.expected_text } : {}),
    expected_alt: p.expected_alt ?? [],
    ...(p.old_str !== undefined ? { old_texts: [p.old_str] } : {}),
  };
}

/** The corpora the patch corpus is built from. */
export const PATCH_SOURCES = ['edits-dev.jsonl', 'edits-peers.jsonl'] as const;

/** Builds the patch corpus; empty when the source corpora are not present. */
export function buildPatchCorpus(): PatchCase[] {
  if (!PATCH_SOURCES.every((s) => hasCorpus(s))) return [];
  const dev = readJsonl<DevCase>('edits-dev.jsonl');
  const peers = readJsonl<PeerCase>('edits-peers.jsonl').filter((p) => p.tool === 'ws_patch');
  return [
    ...dev.flatMap((c) => (c.expect === 'apply' ? applyRenderings(c) : refuseRenderings(c))),
    ...peers.map(peerCase),
  ];
}

export type PatchOutcome = 'desired' | 'wrong-apply' | 'partial-write' | 'missed' | 'unnamed-rung' | 'unexplained';

/** The files a case starts with. */
export function caseFiles(c: PatchCase): Record<string, string> {
  return { [c.file]: c.file_text, ...(c.extra_files ?? {}) };
}

/**
 * Judges what a patcher did to a case's files. `after` holds every file's text afterwards;
 * `applied` says whether the patcher reported success; `named` whether an inexact match was
 * named (a rung or a stripped gutter).
 */
export function judgePatch(
  c: PatchCase,
  after: Readonly<Record<string, string | null>>,
  applied: boolean,
  named: boolean,
): PatchOutcome {
  const before = caseFiles(c);
  const changed = Object.keys(before).filter((p) => after[p] !== before[p]);
  if (c.expect === 'refuse') {
    if (changed.length === 0) return applied ? 'missed' : 'desired';
    // A refused multi-part patch that changed something left a file half-patched.
    return applied ? 'wrong-apply' : 'partial-write';
  }
  const expected = [c.expected_text, ...(c.expected_alt ?? [])].filter((t): t is string => typeof t === 'string');
  const text = after[c.file];
  if (changed.length === 0)
    return text !== undefined && text !== null && expected.includes(text) && applied ? 'desired' : 'missed';
  if (text === null || text === undefined || !expected.includes(text)) return applied ? 'wrong-apply' : 'partial-write';
  if (!applied) return 'partial-write';
  return named || exactInFile(c) ? 'desired' : 'unnamed-rung';
}

/** True when every hunk's old lines are in the file as written (joined with the file's own line ending). */
function exactInFile(c: PatchCase): boolean {
  return (c.old_texts ?? []).every((t) => c.file_text.includes(lines(t).join(detectEol(c.file_text))));
}

/** An inexact apply names its rung or the stripped gutter, in the text and in the notes. */
export function namesRung(r: ToolResult): boolean {
  return (
    r.notes.some((n) => n.kind === 'rung' || n.kind === 'gutter-stripped') && /\[(matched|stripped)\b/.test(r.text)
  );
}

/** Runs a case through ws_patch in a fresh engine (syntax check off: the corpus measures matching). */
export async function runPatchCase(c: PatchCase): Promise<{ outcome: PatchOutcome; result: ToolResult }> {
  const ws = new MemoryWorkspace();
  const files = caseFiles(c);
  for (const [p, t] of Object.entries(files)) await ws.writeFile(p, encodeText(t));
  const engine = new Engine({
    workspace: ws,
    tools: CODING_TOOLS,
    settings: { syntax_check: false, loop_guard: false },
  });
  const result = await engine.call('ws_patch', c.args);
  const after: Record<string, string | null> = {};
  for (const p of Object.keys(files)) after[p] = (await ws.lstat(p)) ? decodeText(await ws.readFile(p)) : null;
  return { outcome: judgePatch(c, after, result.ok, namesRung(result)), result };
}
