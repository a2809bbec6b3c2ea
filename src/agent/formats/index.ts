/**
 * Every native tool-call format, and the names of the JSON envelopes the plain JSON reader
 * finds (by the marker right before the object). parse.ts runs them all on the reply with its
 * reasoning blanked and keeps the first complete call.
 */
import { gemma } from './gemma.ts';
import { pythonic } from './pythonic.ts';
import { apertus, deepseek, functionJson, harmony, mistral } from './tagged-json.ts';
import type { NativeFormat } from './types.ts';
import { minicpmXml, qwenXml } from './xml-params.ts';

export { blankThinking } from './thinking.ts';
export { isCall, type BrokenCall, type NativeFormat } from './types.ts';

export const NATIVE_FORMATS: readonly NativeFormat[] = [
  qwenXml,
  minicpmXml,
  pythonic,
  mistral,
  deepseek,
  gemma,
  harmony,
  functionJson,
  apertus,
];

/** The marker before a JSON call names its envelope; `[` of a list may sit between. */
const ENVELOPES: readonly (readonly [RegExp, string])[] = [
  [/<tool_call>\s*\[?\s*$/, 'hermes'],
  [/<\|tool_call\|>\s*\[?\s*$/, 'granite'],
  [/<\|START_ACTION\|>\s*\[?\s*$/, 'command-r7b'],
  [/<\|plugin\|>\s*$/, 'internlm2'],
  [/<tool_calls>\s*\[?\s*$/, 'jamba'],
  [/\[TOOL_CALLS\]\s*\[?\s*$/, 'mistral'],
  [/<\|python_tag\|>\s*$/, 'llama3-json'],
  [/<tools>\s*\[?\s*$/, 'qwen2.5-coder'],
  [/<TOOLCALL>\s*\[?\s*$/, 'nemotron-json'],
  [/```[a-z]*\s*\[?\s*$/i, 'fenced-json'],
];

export function envelopeOf(before: string): string {
  return ENVELOPES.find(([re]) => re.test(before))?.[1] ?? 'json';
}

/** Closing markers kept with a JSON call (a list's `]` may come first). */
export const ENVELOPE_CLOSE =
  /^\s*\]?\s*(?:```|<\/tool_call>|<\|END_ACTION\|>|<\|action_end\|>|<\/tool_calls>|<\/tools>|<\/TOOLCALL>)/;

/** Envelope markers, which are not prose the model added. */
export const ENVELOPE_MARKERS =
  /```[a-z]*|<\/?tool_call>|<\|(?:tool_call|START_ACTION|END_ACTION|action_start|action_end|plugin|python_tag)\|>|<\/?tool_calls>|<\/?tools>|<\/?TOOLCALL>|\[TOOL_CALLS\]/gi;
