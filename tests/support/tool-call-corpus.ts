/**
 * The tool-call format corpus (tests/fixtures/tool-call-formats.json) and its score: a case is
 * right when the parser returns exactly the expected call (or no call where none is expected),
 * and wrong when it returns a call that is not the expected one — the outcome that runs
 * something the model did not ask for. Shared by the corpus test and the bench.
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';

export interface FormatCase {
  readonly id: string;
  readonly split: 'held-out' | 'dev';
  readonly format: string | null;
  readonly source: string;
  readonly raw: string;
  readonly expect: { readonly tool: string; readonly args: unknown } | null;
}

/** The tools the corpus' calls were renamed onto. */
export const CORPUS_TOOLS = ['ws_read', 'ws_edit', 'ws_write', 'ws_shell', 'ws_grep', 'ws_list', 'ws_todo'];

/** The cases of a corpus file under tests/fixtures (default: the format corpus). */
export function formatCases(file = 'tool-call-formats.json'): FormatCase[] {
  const url = new URL(`../fixtures/${file}`, import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { cases: FormatCase[] }).cases;
}

/** What a parser under test returns: the call, or null for no call. */
export type CallOf = (raw: string) => { tool: string; args: unknown } | null;

export interface SplitScore {
  readonly right: number;
  readonly total: number;
  /** Cases that gave a call other than the expected one. */
  readonly wrong: readonly string[];
  readonly misses: readonly string[];
}

export function scoreSplit(cases: readonly FormatCase[], callOf: CallOf): SplitScore {
  let right = 0;
  const wrong: string[] = [];
  const misses: string[] = [];
  for (const c of cases) {
    const got = callOf(c.raw);
    if (isDeepStrictEqual(got, c.expect)) right++;
    else {
      misses.push(`${c.id}: expected ${JSON.stringify(c.expect)}, got ${JSON.stringify(got)}`);
      if (got) wrong.push(c.id);
    }
  }
  return { right, total: cases.length, wrong, misses };
}
