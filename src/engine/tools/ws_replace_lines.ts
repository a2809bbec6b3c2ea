/**
 * ws_replace_lines (replace_lines in hash-anchored-tools.md): replace an inclusive range of
 * lines by the numbers ws_read printed. The model sends only the new lines — never the context
 * and never the text it deletes — and the content tag from ws_read's header as `hash`, so a
 * range computed against an older version of the file is refused instead of hitting the wrong
 * lines. `end = start - 1` inserts before `start`; an empty `new` deletes.
 */
import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { ok, refusal } from '../result.ts';
import { contentTag, splitLines } from '../text.ts';
import { commitText, openText } from '../file-io.ts';
import { numberedLine, readHeader } from './ws_read.ts';

/** Lines of unchanged context shown around the edit in the result. */
const CONTEXT_LINES = 2;
/** The echo of the new lines stops here; the rest is a count. */
const MAX_ECHO_LINES = 30;

const schema = z.object({
  path: z.string().describe('File path relative to the project root'),
  start: z.number().int().describe('First line to replace, as numbered by ws_read'),
  end: z.number().int().describe('Last line to replace (inclusive); start - 1 inserts before start without deleting'),
  new: z.string().describe('The replacement lines, without ws_read line numbers; empty to delete the range'),
  hash: z.string().describe('The tag from the ws_read header, e.g. a1b2 from [src/app.py#a1b2: lines 1-120 of 340]'),
});

/** Pulls the 4-hex tag out of what the model sent: "a1b2", "#a1b2" or a pasted ws_read header. */
export function parseTag(raw: string): string | null {
  const s = raw.trim();
  const m = /^#?([0-9a-f]{4})$/i.exec(s) ?? /#([0-9a-f]{4})\b/i.exec(s);
  return m ? m[1]!.toLowerCase() : null;
}

/**
 * Replaces lines [start, end] of `text` with `replacement`'s lines. Untouched lines keep their
 * own endings; new lines take the file's dominant ending (CRLF or LF), and the file keeps
 * (or keeps lacking) its final newline.
 */
export function spliceLines(text: string, start: number, end: number, replacement: string): string {
  const segs = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const crlf = (text.match(/\r\n/g)?.length ?? 0) * 2 > (text.match(/\n/g)?.length ?? 0);
  const eol = crlf ? '\r\n' : '\n';
  // An empty file has no final newline to keep; give the new text the usual one.
  const finalNewline = segs.length === 0 || text.endsWith('\n');
  const inserted = splitLines(replacement.replace(/\r\n/g, '\n')).map((l) => l + eol);
  const out = [...segs.slice(0, start - 1), ...inserted, ...segs.slice(end)];
  for (let i = 0; i < out.length - 1; i++) if (!out[i]!.endsWith('\n')) out[i] += eol;
  const lastIdx = out.length - 1;
  if (lastIdx >= 0) {
    const lastSeg = out[lastIdx]!;
    if (finalNewline && !lastSeg.endsWith('\n')) out[lastIdx] = lastSeg + eol;
    if (!finalNewline) out[lastIdx] = lastSeg.replace(/\r?\n$/, '');
  }
  return out.join('');
}

function plural(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

export const wsReplaceLines = defineTool({
  name: 'ws_replace_lines',
  summary: "Replace an inclusive line range by ws_read's numbers, checked against the file's tag",
  writes: true,
  schema,
  aliases: {
    file_path: 'path',
    start_line: 'start',
    end_line: 'end',
    new_str: 'new',
    new_text: 'new',
    content: 'new',
    tag: 'hash',
  },
  async run(args, ctx) {
    const opened = await openText(ctx, args.path, 'write', 'ws_replace_lines');
    if (!opened.ok) return opened.result;
    const { file, text } = opened;
    const tag = contentTag(text);
    const readAgain = `Read it again with ws_read ${JSON.stringify({ path: file.display })} and use the new line numbers and tag.`;

    const given = parseTag(args.hash);
    if (given === null) {
      return refusal(
        `Refused — hash ${JSON.stringify(args.hash)} is not a content tag. Pass the 4 hex digits after # in the ws_read header, ` +
          `e.g. "a1b2" from [${file.display}#a1b2: lines 1-120 of 340]. ${readAgain}`,
        'bad-hash',
      );
    }
    if (given !== tag) {
      return refusal(
        `Refused — ${file.display} has changed since the read that showed #${given} (its tag is now #${tag}), ` +
          `so those line numbers may point at the wrong lines. Nothing was changed. ${readAgain}`,
        'stale-hash',
      );
    }

    const total = splitLines(text).length;
    const { start, end } = args;
    if (start < 1 || start > total + 1 || end < start - 1 || end > total) {
      return refusal(
        `Refused — lines ${start}-${end} are out of range: ${file.display} has ${plural(total, 'line')}. ` +
          `Use 1 <= start <= ${total + 1} and start - 1 <= end <= ${total}: start-end replaces those lines, ` +
          `end = start - 1 inserts before start without deleting${total > 0 ? `, start = ${total + 1}, end = ${total} appends` : ''}. Nothing was changed.`,
        'range',
      );
    }

    const after = spliceLines(text, start, end, args.new);
    const added = splitLines(args.new.replace(/\r\n/g, '\n')).length;
    const removed = end - start + 1;
    if (after === text)
      return ok(`no change — lines ${start}-${end} of ${file.display} already read exactly like this (tag #${tag}).`);
    const committed = await commitText(ctx, 'ws_replace_lines', file, text, after);
    if (!committed.ok) return committed.result;

    const what =
      removed === 0
        ? `inserted ${plural(added, 'line')} before line ${start} of ${file.display}`
        : added === 0
          ? `deleted lines ${start}-${end} of ${file.display}`
          : `replaced lines ${start}-${end} of ${file.display} with ${plural(added, 'line')}`;
    const newLines = splitLines(after);
    const newTag = contentTag(after);
    const shift = added - removed;
    const lines = [`${what}. The file now has ${plural(newLines.length, 'line')}; its tag is now #${newTag}.`];
    if (shift !== 0 && end < total)
      lines.push(`Old lines ${end + 1}-${total} are now ${end + 1 + shift}-${total + shift}.`);
    // Echo the edited region with its new numbers, so the model can check it without a re-read.
    const from = Math.max(1, start - CONTEXT_LINES);
    const to = Math.min(newLines.length, start + added - 1 + CONTEXT_LINES, from + MAX_ECHO_LINES - 1);
    if (to >= from) {
      lines.push(readHeader(file.display, newTag, from, to, newLines.length));
      for (let n = from; n <= to; n++) lines.push(numberedLine(n, newLines[n - 1]!));
    }
    return ok(lines.join('\n'), committed.committed.notes, committed.committed.changes);
  },
});
