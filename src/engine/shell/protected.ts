/**
 * A gated command is one a person may approve; a command that names `.git/` or `.slmcode/`
 * (outside `scratch/`) anywhere in its arguments — an operand, or an option's value — is never
 * offered for approval (and a test runner, interpreter or package manager never runs with one), whatever the tool's own rules say it writes (`git restore --source=HEAD
 * .slmcode/hooks.json`, `git apply --directory=.git`, `npm pack --pack-destination .git`). The
 * boundary is the file tools' own (`protectedArea`, confusables included).
 */
import { protectedArea } from '../jail.ts';
import { never, q, USE, type Finding } from './decision.ts';
import type { Word } from './words.ts';

/** The workspace-relative segments a path names, or null when it is absolute or leaves the root. */
function segmentsOf(path: string): string[] | null {
  if (path.startsWith('/')) return null;
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.pop() === undefined) return null;
    } else out.push(seg);
  }
  return out;
}

/**
 * What an argument may name: the word itself, what follows each `=` (`--name=value`, `name=value`
 * settings such as python's `-X pycache_prefix=…`, and flags nested in a value, as in go's
 * `-ldflags=-memprofile=.git/x`), the value of `-Xvalue`, and each `kind:path` part
 * (`--cov-report=html:.git`).
 */
function candidates(text: string): string[] {
  const out = [text];
  for (let eq = text.indexOf('='); eq > 0; eq = text.indexOf('=', eq + 1)) out.push(text.slice(eq + 1));
  if (/^-[A-Za-z]./.test(text)) out.push(text.slice(2));
  return out.flatMap((c) => [c, ...(c.includes(':') ? c.split(':') : [])]);
}

/** The finding that refuses a gated command naming a protected path, or null. */
export function protectedMentionFinding(stages: readonly (readonly Word[])[]): Finding | null {
  for (const words of stages) {
    for (const w of words.slice(1)) {
      for (const c of candidates(w.text)) {
        const segs = segmentsOf(c);
        if (segs === null || segs.length === 0) continue;
        const area = protectedArea(segs);
        if (area === null) continue;
        const what = area === 'harness' ? ".slmcode/ (the harness's own state)" : ".git/ (the repository's internals)";
        return never(
          'protected-path',
          `${q(w.raw)} names ${what}, which no command may change, so it is not offered for approval`,
          USE.write,
        );
      }
    }
  }
  return null;
}
