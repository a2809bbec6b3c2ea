/**
 * The syntax checkers against the edits corpus. Two claims:
 * 1. Every real repository file in the corpus (each `file_text` the corpus did not inject a
 *    copied span into; CRLF and trailing-whitespace variants included) gets an `ok` verdict —
 *    a false "broken" verdict would revert a good edit.
 * 2. On every other text (the edited `expected_text`s, the injected copies — many do not
 *    parse, since the corpus edits drop and mangle lines), the verdict agrees with the
 *    reference tool the spec names where one exists here: V8 for JavaScript (what
 *    `node --check` runs), CPython's `compile()` for Python, `JSON.parse` and TypeScript's
 *    JSONC reader for JSON. tree-sitter is more lenient than CPython, so for Python only false
 *    "broken" verdicts fail the test; misses are counted. No Go toolchain is installed, so Go
 *    verdicts on edited texts are only counted.
 */
import { spawnSync } from 'node:child_process';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { readJsonl } from '../support/corpus.ts';
import { useNodeWasm } from '../../src/platform/node-wasm.ts';
import { checkSyntax } from '../../src/engine/syntax/check.ts';
import { isJsoncPath } from '../../src/engine/syntax/json.ts';
import type { SyntaxVerdict } from '../../src/engine/syntax/verdict.ts';

interface EditCase {
  id: string;
  lang: string;
  file: string;
  file_text: string;
  expect: 'apply' | 'refuse';
  expected_text?: string;
  expected_alt?: string[];
  subkind?: string;
}

type Lang = 'javascript' | 'json' | 'python' | 'go';
const LANGS: readonly Lang[] = ['javascript', 'json', 'python', 'go'];

interface Sample {
  readonly id: string;
  readonly lang: Lang;
  readonly file: string;
  readonly text: string;
  /** A repository file as published (claim 1), not an edited or injected text. */
  readonly real: boolean;
  verdict?: SyntaxVerdict;
  ms?: number;
  /** The reference tool's answer; undefined where no reference exists. */
  reference?: boolean;
}

function collect(): Sample[] {
  const out: Sample[] = [];
  const seen = new Set<string>();
  const add = (c: EditCase, text: string | undefined, real: boolean) => {
    const key = `${c.file}\0${text}`;
    if (text === undefined || seen.has(key)) return;
    seen.add(key);
    out.push({ id: c.id, lang: c.lang as Lang, file: c.file, text, real });
  };
  for (const c of readJsonl<EditCase>('edits-dev.jsonl')) {
    if (!(LANGS as readonly string[]).includes(c.lang)) continue;
    add(c, c.file_text, !c.subkind?.startsWith('injected'));
  }
  // Second pass, so a text that is also some row's real file_text counts as real.
  for (const c of readJsonl<EditCase>('edits-dev.jsonl')) {
    if (!(LANGS as readonly string[]).includes(c.lang) || c.expect !== 'apply') continue;
    for (const t of [c.expected_text, ...(c.expected_alt ?? [])]) add(c, t, false);
  }
  return out;
}

/** V8's verdicts (module first, then the CommonJS wrapper), from a child Node with vm modules enabled. */
function v8Reference(texts: string[]): boolean[] {
  const script = `
    import vm from 'node:vm'; import { readFileSync } from 'node:fs';
    const texts = JSON.parse(readFileSync(0, 'utf8'));
    const parses = (t) => { try { new vm.SourceTextModule(t); return true; } catch {}
      try { vm.compileFunction(t, ['exports', 'require', 'module', '__filename', '__dirname']); return true; } catch { return false; } };
    process.stdout.write(JSON.stringify(texts.map(parses)));`;
  const r = spawnSync(
    process.execPath,
    ['--experimental-vm-modules', '--no-warnings', '--input-type=module', '-e', script],
    {
      input: JSON.stringify(texts),
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    },
  );
  if (r.status !== 0) throw new Error(`V8 reference failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as boolean[];
}

/** CPython's verdicts, or null (with the reason printed) when no python3 is installed. */
function cpythonReference(texts: string[]): boolean[] | null {
  const script = `
import json, sys
out = []
for t in json.load(sys.stdin):
    try:
        compile(t, 'f.py', 'exec'); out.append(True)
    except (SyntaxError, ValueError):
        out.append(False)
print(json.dumps(out))`;
  const r = spawnSync('python3', ['-c', script], {
    input: JSON.stringify(texts),
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (r.error || r.status !== 0) {
    console.log(
      `python3 is not available (${r.error?.message ?? r.stderr}); Python verdicts are compared only on real files.`,
    );
    return null;
  }
  return JSON.parse(r.stdout) as boolean[];
}

/** JSON.parse, or TypeScript's JSONC reader (the one that reads tsconfig.json) for files a JSONC reader reads (by name, or because they hold a comment). */
function jsonReference(file: string, text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    const jsoncReader = isJsoncPath(file) || /^\s*\/\/|\/\*/m.test(text);
    return jsoncReader && ts.parseConfigFileTextToJson(file, text).error === undefined;
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : 0;
};

describe('syntax checkers on the edits corpus', () => {
  const samples = collect();

  beforeAll(async () => {
    useNodeWasm();
    for (const s of samples) {
      const start = performance.now();
      s.verdict = (await checkSyntax(s.file, s.text)) ?? undefined;
      s.ms = performance.now() - start;
    }
    const of = (lang: Lang) => samples.filter((s) => s.lang === lang);
    const js = of('javascript');
    v8Reference(js.map((s) => s.text)).forEach((ok, i) => (js[i]!.reference = ok));
    const py = of('python');
    cpythonReference(py.map((s) => s.text))?.forEach((ok, i) => (py[i]!.reference = ok));
    for (const s of of('json')) s.reference = jsonReference(s.file, s.text);
    // Hundreds of parses and two reference processes: a limit against a hang, not a speed check.
  }, 120_000);

  it.each(LANGS)('%s: every real repository file gets an ok verdict', (lang) => {
    const real = samples.filter((s) => s.lang === lang && s.real);
    expect(real.length).toBeGreaterThan(5);
    const notOk = real
      .filter((s) => s.verdict?.status !== 'ok')
      .map((s) => `${s.id} ${s.file}: ${JSON.stringify(s.verdict)}`);
    expect(notOk).toEqual([]);
  });

  it.each(LANGS)('%s: verdicts on edited texts agree with the reference tool', (lang) => {
    const all = samples.filter((s) => s.lang === lang);
    const judged = all.filter((s) => s.reference !== undefined);
    const falseBroken = judged.filter((s) => s.reference && s.verdict?.status === 'error');
    const missed = judged.filter((s) => !s.reference && s.verdict?.status !== 'error');
    const errors = all.filter((s) => s.verdict?.status === 'error').length;
    const times = all.map((s) => s.ms!);
    console.log(
      `${lang}: ${all.length} distinct texts (${all.filter((s) => s.real).length} of them real repository files), ${errors} error verdicts, ` +
        (judged.length
          ? `reference-checked ${judged.length}: ${falseBroken.length} false broken, ${missed.length} missed; `
          : 'no reference tool here; ') +
        `check median ${median(times).toFixed(2)} ms, max ${Math.max(...times).toFixed(1)} ms`,
    );
    expect(all.filter((s) => s.verdict?.status === 'skipped').map((s) => s.id)).toEqual([]);
    expect(falseBroken.map((s) => `${s.id}: ${s.verdict?.message}`)).toEqual([]);
    // tree-sitter-python is knowingly more lenient than CPython; everywhere else a miss is a bug.
    if (lang !== 'python') expect(missed.map((s) => s.id)).toEqual([]);
  });
});
