/**
 * One input line of `slm batch`: `{"root": DIR, "tool": NAME, "args": {...}, "settings"?: {...}}`.
 * A line that does not fit becomes a message naming what was wrong and the expected shape,
 * answered in place, so one bad line never stops the batch.
 */
import type { EngineSettings } from '../engine/settings.ts';
import { checkSettings } from './settings-arg.ts';

export interface BatchRequest {
  readonly root: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** Absent when the line gives none: the root's session keeps its own. */
  readonly settings?: Partial<EngineSettings>;
}

export type ParsedLine =
  { readonly ok: true; readonly req: BatchRequest } | { readonly ok: false; readonly text: string };

/** The shape every message about a bad line ends with. */
export const EXPECTED_SHAPE =
  'Expected one JSON object per line: {"root": "DIR", "tool": "NAME", "args": {...}} with an optional "settings": {...}.';

const KEYS = ['root', 'tool', 'args', 'settings'];

function bad(what: string): ParsedLine {
  return { ok: false, text: `batch line not run — ${what}. ${EXPECTED_SHAPE}` };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseBatchLine(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    return bad(`the line is not valid JSON (${(e as Error).message})`);
  }
  if (!isObject(value)) return bad(`the line is ${JSON.stringify(value)}, not a JSON object`);
  const unknown = Object.keys(value).filter((k) => !KEYS.includes(k));
  if (unknown.length) return bad(`unknown key(s) ${unknown.map((k) => JSON.stringify(k)).join(', ')}`);
  const { root, tool, args, settings } = value;
  if (typeof root !== 'string' || root === '') return bad('"root" must be the project directory as a non-empty string');
  if (typeof tool !== 'string' || tool === '') return bad('"tool" must be a tool name such as "ws_read"');
  if (args !== undefined && !isObject(args)) return bad(`"args" must be a JSON object, not ${JSON.stringify(args)}`);
  if (settings === undefined) return { ok: true, req: { root, tool, args: args ?? {} } };
  const checked = checkSettings(settings);
  if (!checked.ok) return bad(checked.text.replace(/\.$/, ''));
  return { ok: true, req: { root, tool, args: args ?? {}, settings: checked.settings } };
}
