/**
 * What a person sees must be what runs. Some characters make a command display differently from
 * how bash reads it: bidi controls reorder the text (Trojan Source), and outside quotes a
 * zero-width character, a line separator or a non-ASCII space looks like a separator that bash
 * does not treat as one (`ls；rm`, `rm　-rf`). Inside quotes such characters are only data (a
 * pattern to grep for, a name), so there only controls and bidi marks are refused.
 */
import type { Node } from 'web-tree-sitter';
import { never, q, type Finding } from './decision.ts';

/** Never allowed: C0/C1 controls other than tab and newline, and bidi controls. */
const ALWAYS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
/** Allowed only inside quotes: other format characters (zero-width), line and paragraph separators, non-ASCII spaces. */
const OUTSIDE_QUOTES = /[\p{Cf}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/u;
/** Nodes whose text bash reads as quoted data. */
const QUOTED = ['raw_string', 'string', 'ansi_c_string', 'heredoc_body'];

function finding(src: string, at: number, ch: string): Finding {
  const code = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return never(
    'invisible-char',
    `the command contains the invisible or look-alike character ${code} near ${q(src.slice(Math.max(0, at - 10), at + 10))}, so what is shown is not what runs`,
    'Retype the command with plain ASCII spaces and operators.',
  );
}

/** The first character that would make the displayed command differ from the one bash runs, or null. */
export function displayFinding(root: Node, src: string): Finding | null {
  const always = ALWAYS.exec(src);
  if (always) return finding(src, always.index, always[0]);
  if (!OUTSIDE_QUOTES.test(src)) return null;
  // Blank out the quoted spans (tree-sitter indexes UTF-16 units, as split('') does); what
  // remains is what bash splits into words and operators.
  const units = src.split('');
  for (const n of root.descendantsOfType(QUOTED)) for (let i = n.startIndex; i < n.endIndex; i++) units[i] = ' ';
  const outside = OUTSIDE_QUOTES.exec(units.join(''));
  return outside ? finding(src, outside.index, outside[0]) : null;
}
