/**
 * ws_edit against the edit corpora, run as a model would: write `file_text` to `file` in a fresh
 * memory workspace and call ws_edit through an Engine (aliases, schema, the tool).
 * - apply: the file must equal `expected_text` or one of `expected_alt` byte for byte, and the
 *   result must name the rung (or the stripped gutter) when old_str was not in the file as is;
 * - refuse: the file is unchanged and the result is a refusal that says why.
 * A wrong apply is a changed file that is not an expected text, or any change where a refusal
 * was expected. Figures are printed per corpus and per drift kind; the test fails below target.
 */
import { describe, expect, it } from 'vitest';
import { hasCorpus, readJsonl } from '../support/corpus.ts';
import { Engine } from '../../src/engine/engine.ts';
import { decodeText, encodeText } from '../../src/engine/text.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { CODING_TOOLS } from '../../src/engine/tools/index.ts';

interface EditCase {
  id: string;
  file: string;
  file_text: string;
  old_str: string;
  new_str: string;
  drift?: string;
  subkind?: string;
  expect: 'apply' | 'refuse';
  expected_text?: string | null;
  expected_alt?: string[] | null;
  tool?: string;
  args?: Record<string, unknown>;
  peer?: string;
}

type Outcome = 'desired' | 'wrong-apply' | 'missed' | 'unnamed-rung' | 'unexplained';

interface Tally {
  n: number;
  desired: number;
  wrong: number;
  other: Record<string, number>;
}

/** Runs one case; returns the outcome and the result text (for the failure listing). */
async function runCase(c: EditCase): Promise<{ outcome: Outcome; text: string }> {
  const ws = new MemoryWorkspace();
  await ws.writeFile(c.file, encodeText(c.file_text));
  const engine = new Engine({ workspace: ws, tools: CODING_TOOLS, settings: { syntax_check: false } });
  const args = c.args ?? { path: c.file, old_str: c.old_str, new_str: c.new_str };
  const r = await engine.call('ws_edit', args);
  const after = decodeText(await ws.readFile(c.file));
  const changed = after !== c.file_text;
  if (c.expect === 'refuse') {
    if (changed) return { outcome: 'wrong-apply', text: r.text };
    // A refusal must say why: a refusal note and a message that names the next step.
    const explained = !r.ok && r.notes.some((n) => n.kind === 'refusal') && r.text.length > 60;
    return { outcome: explained ? 'desired' : 'unexplained', text: r.text };
  }
  const expected = [c.expected_text, ...(c.expected_alt ?? [])].filter((t): t is string => typeof t === 'string');
  if (!changed) return { outcome: expected.includes(after) ? 'desired' : 'missed', text: r.text };
  if (!expected.includes(after)) return { outcome: 'wrong-apply', text: r.text };
  const oldStr = String(args.old_str ?? '');
  const exact = c.file_text.includes(oldStr);
  const named =
    /\[matched |\[stripped ws_read line numbers/.test(r.text) &&
    r.notes.some((n) => n.kind === 'rung' || n.kind === 'gutter-stripped');
  return { outcome: exact || named ? 'desired' : 'unnamed-rung', text: r.text };
}

function add(t: Tally, o: Outcome): void {
  t.n++;
  if (o === 'desired') t.desired++;
  else {
    if (o === 'wrong-apply') t.wrong++;
    t.other[o] = (t.other[o] ?? 0) + 1;
  }
}

function pct(a: number, n: number): string {
  return n === 0 ? '-' : `${((100 * a) / n).toFixed(1)}%`;
}

function report(name: string, byKind: Map<string, Tally>, total: Tally, failures: string[]): string {
  const rows = [...byKind.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, t]) => {
      const other = Object.entries(t.other)
        .map(([o, n]) => `${o}:${n}`)
        .join(' ');
      return `  ${k.padEnd(40)} ${String(t.n).padStart(4)}  desired ${pct(t.desired, t.n).padStart(6)}  wrong ${t.wrong}${other ? `  (${other})` : ''}`;
    });
  return [
    `${name}: ${total.n} cases — desired outcome ${pct(total.desired, total.n)}, wrong applies ${total.wrong}`,
    ...rows,
    ...(failures.length ? ['  not desired:', ...failures.slice(0, 30).map((f) => `    ${f}`)] : []),
  ].join('\n');
}

async function runCorpus(name: string, cases: EditCase[], kindOf: (c: EditCase) => string): Promise<Tally> {
  const byKind = new Map<string, Tally>();
  const total: Tally = { n: 0, desired: 0, wrong: 0, other: {} };
  const failures: string[] = [];
  for (const c of cases) {
    const { outcome, text } = await runCase(c);
    const kind = kindOf(c);
    if (!byKind.has(kind)) byKind.set(kind, { n: 0, desired: 0, wrong: 0, other: {} });
    add(byKind.get(kind)!, outcome);
    add(total, outcome);
    if (outcome !== 'desired') failures.push(`${c.id} [${outcome}] ${text.split('\n')[0]!.slice(0, 140)}`);
  }
  console.log(report(name, byKind, total, failures));
  return total;
}

/** Desired-outcome share each judged corpus must reach, with no wrong apply. */
const TARGET = 0.99;

const corpora = [
  {
    file: 'edits-dev.jsonl',
    judged: true,
    pick: (c: EditCase) => true,
    kind: (c: EditCase) => `${c.drift}/${c.subkind || '-'}`,
  },
  {
    file: 'edits-gutter-variants.jsonl',
    judged: true,
    pick: (c: EditCase) => true,
    kind: (c: EditCase) => c.drift ?? '-',
  },
  {
    file: 'edits-peers.jsonl',
    judged: false,
    pick: (c: EditCase) => c.tool === 'ws_edit',
    kind: (c: EditCase) => `${c.peer}/${c.expect}`,
  },
];

describe('ws_edit on the edit corpora', () => {
  for (const corpus of corpora) {
    it.skipIf(!hasCorpus(corpus.file))(`${corpus.file}`, { timeout: 120_000 }, async () => {
      const cases = readJsonl<EditCase>(corpus.file).filter(corpus.pick);
      const total = await runCorpus(corpus.file, cases, corpus.kind);
      expect(total.n).toBeGreaterThan(0);
      expect(total.wrong).toBe(0);
      if (corpus.judged) expect(total.desired / total.n).toBeGreaterThanOrEqual(TARGET);
    });
  }
});
