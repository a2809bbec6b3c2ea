/**
 * A heredoc's body, found the way bash finds it — not the way tree-sitter-bash reports it. Bash
 * reads the body from the line after the command line, line by line, until a line that equals
 * the delimiter (after quote removal; with `<<-`, after stripping leading tabs from every line).
 * The plan feeds exactly these bytes to the command's stdin, so the runner never asks a shell to
 * find the body again.
 */

/** The body bash would read, or why it cannot be known for certain. */
export type HeredocBody =
  | {
      readonly ok: true;
      readonly delimiter: string;
      readonly quoted: boolean;
      readonly body: string;
      readonly end: number;
    }
  | { readonly ok: false; readonly why: string };

/** The delimiter word after quote removal, when it is one plain name, quoted whole or not at all. */
function delimiterOf(raw: string): { delimiter: string; quoted: boolean } | null {
  const m = /^(?:'([A-Za-z_][A-Za-z0-9_]*)'|"([A-Za-z_][A-Za-z0-9_]*)"|([A-Za-z_][A-Za-z0-9_]*))$/.exec(raw);
  if (!m) return null;
  const quotedName = m[1] ?? m[2];
  return quotedName !== undefined ? { delimiter: quotedName, quoted: true } : { delimiter: m[3]!, quoted: false };
}

/**
 * Reads the body of the heredoc whose delimiter word is `rawDelimiter`, written after an
 * operator ending at `opEnd` (`<<` or `<<-`, `stripTabs`), in `src`. `lineEnd` is where the
 * command line ends (the first newline after the heredoc's operator that tree-sitter did not
 * read as part of the line).
 */
export function readHeredocBody(src: string, rawDelimiter: string, stripTabs: boolean, lineEnd: number): HeredocBody {
  const d = delimiterOf(rawDelimiter);
  if (d === null) {
    return {
      ok: false,
      why: `the heredoc delimiter ${JSON.stringify(rawDelimiter)} is not a plain name such as EOF (quoted whole, like 'EOF', or not at all)`,
    };
  }
  if (src[lineEnd] !== '\n') return { ok: false, why: 'the heredoc body does not start on the line after the command' };
  let at = lineEnd + 1;
  let body = '';
  while (at <= src.length) {
    const nl = src.indexOf('\n', at);
    const stop = nl === -1 ? src.length : nl;
    let line = src.slice(at, stop);
    if (stripTabs) line = line.replace(/^\t+/, '');
    if (line === d.delimiter) return { ok: true, delimiter: d.delimiter, quoted: d.quoted, body, end: stop };
    if (nl === -1) break;
    body += `${line}\n`;
    at = nl + 1;
  }
  return { ok: false, why: `the heredoc has no line ${JSON.stringify(d.delimiter)} that ends it` };
}
