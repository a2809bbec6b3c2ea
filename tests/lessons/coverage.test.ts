/**
 * docs/LESSONS.md is generated: it must be exactly what scripts/make-coverage.ts makes from
 * the lessons recorded afresh, and its coverage table must place every mechanism in a lesson.
 * And every message the tool reference (../shared/spec/aci-tool-reference.md) quotes is shown
 * by some bundled session, so a newcomer can see each one as the model saw it.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_DIR } from '../support/corpus.ts';
import { useNodeWasm } from '../support/node-wasm.ts';
import { BUNDLED_FILES, loadBundled } from './bundled-files.ts';
import { COVERAGE_PATH, coverageRows, coverageText } from '../../scripts/make-coverage.ts';
import { REGENERATE_LESSONS } from '../../scripts/make-lessons.ts';
import { MECHANISMS } from '../../src/session/mechanisms.ts';

let fresh: string;

beforeAll(async () => {
  useNodeWasm();
  fresh = coverageText(await coverageRows());
}, 120_000);

describe('docs/LESSONS.md', () => {
  it('is up to date with the lessons, the catalogue and this engine', async () => {
    const onDisk = await readFile(COVERAGE_PATH, 'utf8').catch(() => '');
    if (onDisk !== fresh) expect.fail(`docs/LESSONS.md is out of date; regenerate it with \`${REGENERATE_LESSONS}\`.`);
  });

  it('places every mechanism in a lesson step, with its ACI-off verdict', () => {
    const table = fresh.slice(fresh.indexOf('## Coverage'), fresh.indexOf('\n## 1. '));
    for (const m of MECHANISMS) {
      const row = table.split('\n').find((l) => l.startsWith(`| ${m.name.replace(/\|/g, '\\|')} |`));
      expect(row, m.id).toMatch(/ step \d+.* \| (worse|same|better): /);
    }
    expect(table).not.toContain('**not shown**');
  });
});

/**
 * The messages the tool reference quotes, exactly as it writes them. In a quote, `…` stands for
 * any text, `N` and numbers for any number, and `pkg/foo/bar.go` or `<path>` for any path.
 */
const SPEC_MESSAGES: readonly string[] = [
  'write refused — .slmcode/hooks.json is harness control state, not project source.',
  '[showing lines 1–120 of 480 in pkg/foo/bar.go; use offset= to see more]',
  'Next page: ws_read {"path":"pkg/foo/bar.go","offset":121,"limit":120}. To jump straight to a symbol use ws_grep first.',
  '[stripped ws_read line numbers from old_str — do not include them]',
  '[matched ignoring trailing whitespace — your old_str had different line endings]',
  '[matched after normalizing indentation — your old_str was indented differently]',
  '[matched ignoring blank lines — your old_str had different blank-line spacing]',
  '[matched on first+last line anchors — the middle of your old_str did not match exactly; verify the result with ws_read]',
  'No-op edit refused — old_str and new_str are identical.',
  'old_str found N times … pass replace_all:true, or include more surrounding context … Do NOT use ws_write.',
  'Ambiguous edit refused — the search text matches N places',
  'Write refused — content is empty, so this would create <path> as a 0-byte file.',
  'edited pkg/foo/bar.go (1 replacement(s))',
  'EDIT REVERTED — pkg/foo/bar.go parsed correctly before your change and does NOT parse after it',
  'Do NOT retry the identical edit — it will be reverted again.',
  '(command succeeded with no output: …)',
  'anchored@120..164 exact',
];

const PLACEHOLDER = /(…|<path>|pkg\/foo\/bar\.go|\bN\b|\d+)/;

/** The pattern a quote stands for: its text exactly, its placeholders as what they stand for. */
function specPattern(quote: string): RegExp {
  const parts = quote.split(PLACEHOLDER);
  const source = parts.map((p, i) => {
    if (i % 2 === 0) return p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (p === '…') return '[\\s\\S]*?';
    if (p === '<path>' || p === 'pkg/foo/bar.go') return '[^\\s"]+';
    return '\\d+';
  });
  return new RegExp(source.join(''));
}

describe('the messages the tool reference quotes', () => {
  let spec: string;
  let shown: { readonly name: string; readonly step: number; readonly text: string }[];

  beforeAll(async () => {
    spec = (await readFile(resolve(CORPUS_DIR, '../spec/aci-tool-reference.md'), 'utf8')).replace(/\\\|/g, '|');
    shown = [];
    for (const file of BUNDLED_FILES) (await loadBundled(file)).steps.forEach((s, i) => shown.push({ name: file.name, step: i + 1, text: s.resultText ?? '' }));
  });

  it.each(SPEC_MESSAGES)('%s — quoted by the spec, and shown by a bundled session', (quote) => {
    expect(spec).toContain(quote);
    const pattern = specPattern(quote);
    const where = shown.find((s) => pattern.test(s.text));
    if (!where) expect.fail(`no step of a bundled session shows "${quote}" (${pattern}); add a step to a lesson (scripts/lesson-scripts.ts) that makes the engine say it`);
  });

  it('reads placeholders as what they stand for', () => {
    expect(specPattern('old_str found N times … Do NOT').test('old_str found 3 times in a.js — Do NOT')).toBe(true);
    expect(specPattern('edited pkg/foo/bar.go (1 replacement(s))').test('edited src/a.js (2 replacement(s))')).toBe(true);
    expect(specPattern('edited pkg/foo/bar.go (1 replacement(s))').test('edited src/a.js (2 replacements)')).toBe(false);
    expect(specPattern('(command succeeded with no output: …)').test('(command failed with no output: true)')).toBe(false);
  });
});
