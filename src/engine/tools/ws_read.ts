/**
 * ws_read: a window of a text file as numbered lines (`%6d|line`), under a header that carries
 * the file's content tag (`[path#a1b2: lines 1-120 of 340]`). The window is `read_window_lines`
 * long unless `limit` says otherwise, and a hard ceiling (~15% of the context window, never more
 * than the tool result cap) shrinks it and says so, so one read cannot crowd out the conversation.
 */
import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { fail, ok, type Note } from '../result.ts';
import { readCeilingChars } from '../settings.ts';
import { contentTag, splitLines } from '../text.ts';
import { openText } from '../file-io.ts';

/** Room kept for the header, the shrink note and the footer inside the character budget. */
const FRAME_RESERVE = 600;

/** One line as ws_read shows it: the number right-aligned in 6 characters, `|`, the text (CR dropped). */
export function numberedLine(n: number, line: string): string {
  return `${String(n).padStart(6)}|${line.endsWith('\r') ? line.slice(0, -1) : line}`;
}

/** The header ws_read and ws_replace_lines print: path, content tag, the lines shown. */
export function readHeader(display: string, tag: string, first: number, last: number, total: number): string {
  return `[${display}#${tag}: lines ${first}-${last} of ${total}]`;
}

const schema = z.object({
  path: z.string().describe('File path relative to the project root, e.g. "src/index.js"'),
  offset: z.number().int().min(0).optional().describe('First line to show, 1-based (default 1)'),
  limit: z.number().int().min(1).optional().describe('How many lines to show (default 120)'),
});

export const wsRead = defineTool({
  name: 'ws_read',
  summary: 'Read a windowed slice of a file as numbered lines',
  writes: false,
  schema,
  aliases: { file_path: 'path', file: 'path', filename: 'path', start_line: 'offset' },
  async run(args, ctx) {
    const opened = await openText(ctx, args.path, 'read', 'ws_read');
    if (!opened.ok) return opened.result;
    const { file, text } = opened;
    const lines = splitLines(text);
    const total = lines.length;
    const tag = contentTag(text);
    const limit = args.limit ?? ctx.settings.read_window_lines;

    if (total === 0) {
      ctx.state.markSeen(file.path, text);
      return ok(
        `[${file.display}#${tag}: empty file, 0 lines]\n` +
          `${file.display} exists but is empty (0 bytes). Give it content with ws_write ${JSON.stringify({ path: file.display, content: '…' })}.`,
      );
    }

    const first = Math.max(1, args.offset ?? 1);
    if (first > total) {
      const lastPage = Math.max(1, total - limit + 1);
      return fail(
        `offset ${first} is past the end of ${file.display}, which has ${total} line${total === 1 ? '' : 's'}. ` +
          `Use an offset from 1 to ${total}, e.g. ws_read ${JSON.stringify({ path: file.display, offset: lastPage, limit })}.`,
        [{ kind: 'hint', text: `offset ${first} > ${total} lines`, detail: 'offset-range' }],
      );
    }
    const wanted = Math.min(total, first + limit - 1);

    // The window shrinks to the read ceiling, and never past the engine's result cap: a cut in
    // the middle of a read would lose exactly the lines the next-page pointer skips over.
    const ceiling = readCeilingChars(ctx.settings);
    const capChars = Math.min(ceiling, ctx.settings.max_tool_chars);
    const budget = Math.max(200, capChars - FRAME_RESERVE - 3 * file.display.length);
    const rows: string[] = [];
    let used = 0;
    let last = first - 1;
    let cutLine: { n: number; length: number } | null = null;
    for (let n = first; n <= wanted; n++) {
      const row = numberedLine(n, lines[n - 1]!);
      if (used + row.length + 1 > budget) {
        if (rows.length === 0) {
          // A single line longer than the budget: show its start rather than nothing.
          rows.push(`${row.slice(0, budget)} …`);
          cutLine = { n, length: lines[n - 1]!.length };
          last = n;
        }
        break;
      }
      rows.push(row);
      used += row.length + 1;
      last = n;
    }

    const notes: Note[] = [];
    const out = [readHeader(file.display, tag, first, last, total), ...rows];
    const capName =
      capChars === ceiling
        ? `${ceiling} characters (~15% of the context window)`
        : `${capChars} characters (max_tool_chars)`;
    if (cutLine) {
      out.push(
        `[line ${cutLine.n} is ${cutLine.length} characters long and was cut: one read shows at most ${capName}. ` +
          `Use ws_grep to find what you need in a file with lines this long]`,
      );
      notes.push({ kind: 'truncated', text: `line ${cutLine.n} cut by the read ceiling`, detail: String(capChars) });
    } else if (last < wanted) {
      out.push(
        `[window cut to lines ${first}–${last} of the ${wanted - first + 1} asked for: one read shows at most ${capName}]`,
      );
      notes.push({
        kind: 'truncated',
        text: `read window shrunk to ${last - first + 1} lines by the read ceiling`,
        detail: String(capChars),
      });
    }
    if (first > 1 || last < total) {
      out.push(`[showing lines ${first}–${last} of ${total} in ${file.display}; use offset= to see more]`);
      out.push(
        last < total
          ? `Next page: ws_read ${JSON.stringify({ path: file.display, offset: last + 1, limit })}. To jump straight to a symbol use ws_grep first.`
          : `This window ends at the last line of the file.`,
      );
      notes.push({
        kind: 'read-window',
        text: `lines ${first}-${last} of ${total}`,
        detail: `${first}-${last}/${total}`,
      });
    }
    ctx.state.markSeen(file.path, text);
    return ok(out.join('\n'), notes);
  },
});
