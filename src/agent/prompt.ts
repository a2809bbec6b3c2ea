/**
 * The system prompt, in the parts the context budget measures: instructions (reply format, the
 * edit-format contract with a worked example and a worked repair, the recommended edit format,
 * skill cards, the configured MCP servers' tool cards) and tool cards (name + one-line contract + compact schema). Kept short on
 * purpose: it must leave room for the work in a 4k-token window.
 */
import { CANONICAL_DONE } from './parse.ts';
import { compactArgs, type ToolSpec } from './call-schema.ts';
import type { PromptParts } from './context.ts';
import { FORMAT_TOOL, type EditFormat } from './evolve.ts';
import { mcpCardsText, type McpListing } from './mcp-cards.ts';

/** A skill card: the body is pulled on demand with ws_skill, never inlined. */
export interface Skill {
  readonly name: string;
  readonly description: string;
}

export interface PromptInput {
  readonly tools: readonly ToolSpec[];
  readonly task: string;
  /** The edit format the run recommends (chosen by the bandit, or fixed). */
  readonly editFormat?: EditFormat;
  readonly skills?: readonly Skill[];
  /** The configured MCP servers' tools, listed before the first step. */
  readonly mcpTools?: McpListing;
}

/** The edit-format contract, word for word from the tool reference. */
export const EDIT_CONTRACT = [
  '- `old_str` must match the file byte-for-byte, indentation included. `ws_read` first.',
  "- Strip `ws_read`'s `42|` prefix — it is display only and never matches.",
  '- Make `old_str` unique; include 2–3 surrounding lines when a short span repeats.',
  '- `ws_write` creates new files; change existing files with `ws_edit` or `ws_patch`.',
  '- A failed match is always answered by re-reading and retrying, never by `ws_write`.',
].join('\n');

/**
 * The contract a run states: the spec's, except when the run recommends whole_file — then its
 * last two rules would forbid the very tool recommended, so they say how ws_write changes a file.
 */
export function editContract(format: EditFormat | undefined): string {
  if (format !== 'whole_file') return EDIT_CONTRACT;
  return [
    ...EDIT_CONTRACT.split('\n').slice(0, 3),
    '- `ws_write` creates new files, and rewrites a short existing file you have `ws_read`: send its complete new text, every line.',
    '- A failed `ws_edit` match is answered by re-reading and retrying, or, for a short file, by `ws_write` of its complete new text.',
  ].join('\n');
}

const REPLY_RULES = [
  'You are a coding agent: you work on the project only by calling tools.',
  '',
  '# Reply format',
  'Reply with exactly one JSON object and nothing else. One tool call per turn: a further call is dropped.',
  '{"thought": "one short sentence", "tool": "ws_read", "args": {"path": "src/index.js"}}',
  'Never end on a tool call: when the work is done and checked, reply with the final JSON:',
  CANONICAL_DONE,
].join('\n');

/** The worked example and the worked repair: one edit shown once, and the refusal its most common mistake gets. */
const WORKED_EXAMPLE = [
  '# Worked example',
  'ws_read showed:',
  '     1|export function add(a, b) {',
  '     2|  return a - b;',
  'Edit with old_str copied exactly, without the numbers:',
  '{"tool": "ws_edit", "args": {"path": "src/math.js", "old_str": "  return a - b;", "new_str": "  return a + b;"}}',
  '',
  '# Worked repair',
  'Wrong: old_str "     1|export function add(a, b) {\\n  return a - b;"',
  'Result: Edit refused — old_str has ws_read line numbers (the "42|" gutter) on 1 of its 2 non-blank lines …',
  'Fix: copy only the text after "|".',
].join('\n');

const FORMAT_ADVICE: Readonly<Record<EditFormat, string>> = {
  search_replace: 'change a unique span with ws_edit (old_str → new_str).',
  unified_diff: 'change files with ws_patch: a unified diff with @@ hunks, or a SEARCH/=======/REPLACE block.',
  whole_file: 'for a short file, ws_read it, then ws_write the complete new text; for a long file use ws_edit.',
};

/** The system prompt's parts and the task message. */
export function buildPrompt(input: PromptInput): PromptParts {
  const format =
    input.editFormat && input.tools.some((t) => t.name === FORMAT_TOOL[input.editFormat!])
      ? input.editFormat
      : undefined;
  const sections = [REPLY_RULES, `# Edit contract\n${editContract(format)}`];
  if (format) sections.push(`Preferred edit format: ${FORMAT_ADVICE[format]}`);
  sections.push(WORKED_EXAMPLE);
  if (input.skills?.length) sections.push(skillCards(input.skills));
  if (input.mcpTools) sections.push(mcpCardsText(input.mcpTools));
  return { system: sections.join('\n\n'), tools: toolCards(input.tools), task: taskMessage(input.task) };
}

/** `- ws_read {path: string, offset?: integer}: Read a windowed slice …` per tool: name, arguments, contract. */
export function toolCards(tools: readonly ToolSpec[]): string {
  return ['# Tools', ...tools.map((t) => `- ${t.name} ${compactArgs(t.schema)}: ${t.summary}`)].join('\n');
}

function skillCards(skills: readonly Skill[]): string {
  return [
    '# Skills (read one with ws_skill when it applies)',
    ...skills.map((s) => `- ${s.name} — ${s.description}`),
  ].join('\n');
}

function taskMessage(task: string): string {
  return `Task: ${task.trim()}\n\nPaths are relative to the project root. Start by looking (ws_list, ws_read), then act.`;
}
