/**
 * ws_write: creates a file, or rewrites one the session has already read or written. Three
 * guards stand between a small model and a lost file: read-before-overwrite (the refusal spells
 * out the ws_edit recipe), the catastrophic-truncation guard (a large file rewritten as a tiny
 * one), and the empty-content guard (usually the body sent under a key we do not know).
 */
import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { ok, refusal } from '../result.ts';
import { encodeText, splitLines } from '../text.ts';
import { binaryText, commitText, directoryText, fileState, jail, specialFileText } from '../file-io.ts';

/** The body's canonical key and its accepted aliases, as the messages name them. */
export const BODY_KEYS = ['content', 'contents', 'text', 'body'] as const;
const KNOWN_KEYS: ReadonlySet<string> = new Set(['path', 'content', 'allow_shrink']);

/** A file at least this large (lines or bytes) is protected by the truncation guard… */
export const SHRINK_GUARD_MIN_LINES = 20;
export const SHRINK_GUARD_MIN_BYTES = 1024;
/** …against a rewrite smaller than this fraction of its bytes. */
export const SHRINK_GUARD_RATIO = 0.2;

const schema = z.looseObject({
  path: z.string().describe('File path relative to the project root, e.g. "src/util.js"'),
  content: z.string().optional().describe('The complete text of the file'),
  allow_shrink: z
    .boolean()
    .optional()
    .describe('true to allow emptying a file or rewriting a large file as a much smaller one'),
});

function countLines(text: string): string {
  const n = splitLines(text).length;
  return `${n} line${n === 1 ? '' : 's'}`;
}

function sizeText(bytes: number): string {
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`;
}

function editRecipe(display: string): string {
  return `To change it: 1) ws_read ${JSON.stringify({ path: display })} 2) ws_edit ${JSON.stringify({ path: display, old_str: '<2-3 exact lines from the file>', new_str: '<those lines changed>' })} — one call per change.`;
}

function emptyRefusal(display: string, existing: string | null, unknownKeys: readonly string[]): string {
  const what =
    existing === null ? `create ${display} as a 0-byte file` : `empty ${display} (now ${countLines(existing)})`;
  const lines = [
    `Write refused — content is empty, so this would ${what}.`,
    `Put the file's complete text in "content" (also accepted: ${BODY_KEYS.slice(1).join(', ')}).`,
  ];
  if (unknownKeys.length) {
    lines.push(
      `Your call also had unrecognized key${unknownKeys.length === 1 ? '' : 's'} ${unknownKeys.map((k) => JSON.stringify(k)).join(', ')} — was the text under ${unknownKeys.length === 1 ? 'it' : 'one of them'}? Send it as "content".`,
    );
  }
  lines.push(`If an empty file really is the intent, repeat the call with "allow_shrink": true.`);
  return lines.join('\n');
}

export const wsWrite = defineTool({
  name: 'ws_write',
  summary: 'Create a new file (overwrite needs a prior read)',
  writes: true,
  schema,
  aliases: { contents: 'content', text: 'content', body: 'content', file_path: 'path', file: 'path', filename: 'path' },
  async run(args, ctx) {
    const j = await jail(ctx, args.path, 'write');
    if (!j.ok) return j.result;
    const { file } = j;
    const state = await fileState(ctx.ws, file.path);
    if (state.kind === 'dir') return refusal(`Write refused — ${directoryText(file)}`, 'directory');
    if (state.kind === 'special')
      return refusal(`Write refused — ${specialFileText(file, state.what, 'ws_write')}`, 'special');
    if (state.kind === 'binary') {
      return refusal(
        `Write refused — ${binaryText(file, state.size, 'ws_write')} Overwriting it with text would destroy it.`,
        'binary',
      );
    }
    const before = state.kind === 'text' ? state.text : null;
    const content = args.content ?? '';
    const allowShrink = args.allow_shrink === true;

    if (content === '' && !allowShrink) {
      const unknownKeys = Object.keys(args).filter((k) => !KNOWN_KEYS.has(k));
      return refusal(emptyRefusal(file.display, before, unknownKeys), 'empty-content');
    }

    if (before !== null && ctx.settings.read_before_edit && !ctx.state.hasSeen(file.path)) {
      return refusal(
        `Write refused — ${file.display} already exists (${countLines(before)}) and has not been read in this session, ` +
          `so overwriting it would throw away text you have not seen. ws_write creates new files.\n${editRecipe(file.display)}`,
        'read-before-edit',
      );
    }

    if (before !== null && !allowShrink) {
      const oldBytes = encodeText(before).length;
      const newBytes = encodeText(content).length;
      const large = splitLines(before).length >= SHRINK_GUARD_MIN_LINES || oldBytes >= SHRINK_GUARD_MIN_BYTES;
      if (large && newBytes < oldBytes * SHRINK_GUARD_RATIO) {
        return refusal(
          `Write refused — this would shrink ${file.display} from ${countLines(before)} (${sizeText(oldBytes)}) to ${countLines(content)} (${sizeText(newBytes)}), ` +
            `which looks like an accidental truncation (a whole-file rewrite with parts left out).\n${editRecipe(file.display)}\n` +
            `If replacing the whole file with this much shorter text really is the intent, repeat the call with "allow_shrink": true.`,
          'shrink-guard',
        );
      }
    }

    if (before === content) {
      ctx.state.markSeen(file.path, content);
      return ok(`no change — ${file.display} already has exactly this content (${countLines(content)}).`);
    }
    const committed = await commitText(ctx, 'ws_write', file, before, content);
    if (!committed.ok) return committed.result;
    const verb = before === null ? 'created' : 'wrote';
    return ok(
      `${verb} ${file.display} (${countLines(content)})`,
      committed.committed.notes,
      committed.committed.changes,
    );
  },
});
