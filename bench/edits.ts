/**
 * Edit corpora through ws_edit, beside an exact-match str_replace baseline in the same process.
 * Each case runs as a model would: the file in a fresh workspace, ws_read, then ws_edit with
 * the drifted old_str — with `disable_syntax_check`, because many corpus edits deliberately
 * leave the file unparsable (the corpus measures matching; the syntax check would revert them). Desired = the corpus's expectation met (applied byte for byte and, when
 * inexact, the rung named; or refused with the file unchanged). Wrong = the file changed into
 * anything but the expected text.
 */
import { createEngine } from '../src/engine/create.ts';
import { decodeText, encodeText } from '../src/engine/text.ts';
import type { ToolResult } from '../src/engine/result.ts';
import { MemoryWorkspace } from '../src/workspace/memory/memory-workspace.ts';
import { hasCorpus, readJsonl } from '../tests/support/corpus.ts';
import { pct } from './stats.ts';
import type { BenchRow, BenchSection, BenchSectionDef } from './table.ts';

interface EditCase {
  readonly id: string;
  readonly file: string;
  readonly file_text: string;
  readonly old_str: string;
  readonly new_str: string;
  readonly drift: string;
  readonly subkind: string;
  readonly expect: 'apply' | 'refuse';
  readonly expected_text: string | null;
  readonly expected_alt: readonly string[];
}

type Outcome = 'desired' | 'wrong' | 'missed';

interface Judged {
  readonly outcome: Outcome;
  /** The first line of the tool's answer, for the list of misses. */
  readonly said: string;
}

const DESIRED_MIN = 0.99;

/** The baseline: replace a unique exact occurrence, refuse anything else. */
export function exactStrReplace(text: string, oldStr: string, newStr: string): string | null {
  if (oldStr === '') return null;
  const at = text.indexOf(oldStr);
  if (at < 0 || text.indexOf(oldStr, at + 1) >= 0) return null;
  return text.slice(0, at) + newStr + text.slice(at + oldStr.length);
}

/** An inexact application must say which rung matched (or that the gutter was stripped). */
function namesRung(r: ToolResult): boolean {
  return (
    r.notes.some((n) => n.kind === 'rung' || n.kind === 'gutter-stripped') || /\[(matched|stripped)\b/.test(r.text)
  );
}

function judge(c: EditCase, after: string, ok: boolean, rungNamed: boolean): Outcome {
  const changed = after !== c.file_text;
  if (c.expect === 'refuse') return changed ? 'wrong' : ok ? 'missed' : 'desired';
  const expected = after === c.expected_text || c.expected_alt.includes(after);
  if (!changed && !expected) return 'missed';
  if (!expected) return 'wrong';
  return ok && (c.drift === 'exact' || rungNamed) ? 'desired' : 'missed';
}

async function runOurs(c: EditCase): Promise<Judged> {
  const ws = new MemoryWorkspace();
  await ws.writeFile(c.file, encodeText(c.file_text));
  const engine = createEngine(ws);
  if (engine.tools.has('ws_read')) await engine.call('ws_read', { path: c.file });
  const r = await engine.call('ws_edit', {
    path: c.file,
    old_str: c.old_str,
    new_str: c.new_str,
    disable_syntax_check: true,
  });
  const outcome = judge(c, decodeText(await ws.readFile(c.file)), r.ok, namesRung(r));
  return { outcome, said: `${r.ok ? 'ok' : 'refused'}: ${r.text.split('\n')[0]!.slice(0, 120)}` };
}

function runBaseline(c: EditCase): Outcome {
  const out = exactStrReplace(c.file_text, c.old_str, c.new_str);
  return judge(c, out ?? c.file_text, out !== null, false);
}

interface Tally {
  n: number;
  desired: number;
  wrong: number;
}
const tally = (): Tally => ({ n: 0, desired: 0, wrong: 0 });
function add(t: Tally, o: Outcome): void {
  t.n++;
  if (o === 'desired') t.desired++;
  if (o === 'wrong') t.wrong++;
}
const cell = (t: Tally): string => `${pct(t.desired, t.n)} / ${pct(t.wrong, t.n)}`;

/** The section for one corpus file of edit cases. */
export function editCorpusSection(corpus: string): BenchSectionDef {
  const title = `${corpus} through ws_edit vs exact str_replace`;
  return {
    title,
    async run(): Promise<BenchSection> {
      const unit = 'desired % / wrong-apply %';
      if (!hasCorpus(corpus))
        return { title, unit, rows: [{ figure: corpus, ours: 'corpus not found', baseline: '' }] };
      const cases = readJsonl<EditCase>(corpus);
      const available = createEngine(new MemoryWorkspace()).tools.has('ws_edit');
      const byDrift = new Map<string, { ours: Tally; base: Tally; expect: string }>();
      const total = { ours: tally(), base: tally() };
      const details: string[] = [];
      for (const c of cases) {
        const row = byDrift.get(c.drift) ?? { ours: tally(), base: tally(), expect: c.expect };
        byDrift.set(c.drift, row);
        const base = runBaseline(c);
        add(row.base, base);
        add(total.base, base);
        if (!available) continue;
        const ours = await runOurs(c);
        add(row.ours, ours.outcome);
        add(total.ours, ours.outcome);
        if (ours.outcome !== 'desired')
          details.push(`${c.id} (${c.subkind}, expect ${c.expect}) ${ours.outcome} — ${ours.said}`);
      }
      const ours = (t: Tally): string => (available ? cell(t) : 'not available');
      const rows: BenchRow[] = [...byDrift].map(([drift, r]) => ({
        figure: `${drift} (${r.base.n}, ${r.expect})`,
        ours: ours(r.ours),
        baseline: cell(r.base),
      }));
      const met = available ? total.ours.desired / total.ours.n >= DESIRED_MIN && total.ours.wrong === 0 : null;
      rows.push({
        figure: `all ${total.base.n} cases`,
        ours: ours(total.ours),
        baseline: cell(total.base),
        target: { text: '≥ 99% / 0 wrong', met },
      });
      return { title, unit, rows, details };
    },
  };
}
