/**
 * The Session record, version 1: everything needed to reproduce a run — the engine version,
 * the engine and agent settings, the model, the task, the starting workspace (a bundled
 * template by id + content hash, or the files) and, per step, the model's raw output with the
 * short hashes of the result the model saw and of the workspace after the step.
 *
 * The zod schema is the one gate for records from outside (a file, a link): it bounds every
 * size, and it knows no approval setting, so none can come in — a recorded session never
 * switches a live run to running calls unasked. Results are recomputed by replay; the file
 * form keeps the texts for reading, the shared form (`sharedForm`) drops what replay derives.
 */
import { z } from 'zod';
import { EDIT_FORMATS, type EditFormat } from '../agent/evolve.ts';
import { WEB_SEARCH_PROVIDERS, type EngineSettings } from '../engine/settings.ts';
import type { WebExchange } from '../engine/web/web-log.ts';
import type { McpExchange } from '../engine/mcp/mcp-log.ts';
import { SHORT_HASH_HEX } from './hash.ts';
import { ranNoCommand } from './needs-runner.ts';
import { NOTE_CHARS, TITLE_CHARS } from './person-text.ts';

/** The record format this build writes and reads. */
export const RECORD_VERSION = 1;

/** Bounds on a record from outside: enough for any real session, far below what could hurt. */
export const RECORD_LIMITS = Object.freeze({
  steps: 1000,
  rawChars: 100_000,
  textChars: 1_000_000,
  files: 2000,
  pathChars: 1024,
  taskChars: 20_000,
  webExchanges: 16,
  /** A step's MCP calls, and on the first step the listing of every server (at most 32). */
  mcpExchanges: 48,
  /** An MCP answer's text (mcp_call reads at most 1 MiB). */
  mcpChars: 1_100_000,
});

const hash = z
  .string()
  .regex(new RegExp(`^[0-9a-f]{${SHORT_HASH_HEX}}$`), `must be ${SHORT_HASH_HEX} lowercase hex digits`);
const int = (min: number, max: number) => z.number().int().min(min).max(max);
const text = (max: number) => z.string().max(max);

/** Engine settings with bounds (a record's, and the outside settings a run in the tab is given). */
export const engineSettingsSchema = z.object({
  max_tool_chars: int(100, 1_000_000),
  read_window_lines: int(1, 100_000),
  context_window_tokens: int(256, 10_000_000),
  read_before_edit: z.boolean(),
  edit_tolerance: z.boolean(),
  // Added later: a record without it was made when a pasted gutter was always stripped (while edit_tolerance was on).
  gutter_strip: z.boolean().default(true),
  disabled_rungs: z.array(text(64)).max(64),
  over_edit_guard: z.boolean(),
  loop_guard: z.boolean(),
  loop_guard_repeats: int(1, 100),
  file_checkpoints: z.boolean(),
  syntax_check: z.boolean(),
  shell_timeout: int(1, 600_000),
  shell_timeout_cap: int(1, 600_000),
  // Added later, each defaulting to what a record without it ran with: no specialist tools.
  specialist_tools: z.boolean().default(false),
  web_search_provider: z.enum(WEB_SEARCH_PROVIDERS).default('duckduckgo'),
  web_search_url: text(2048).default(''),
  web_allow_private: z.boolean().default(false),
  web_domains: z.array(text(253)).max(256).default([]),
  web_timeout: int(1, 600_000).default(20_000),
  mcp_servers: z
    .array(
      z.object({
        name: text(64),
        url: text(2048).optional(),
        command: text(1024).optional(),
        args: z.array(text(4096)).max(256).optional(),
        read_only: z.boolean(),
      }),
    )
    .max(32)
    .default([]),
  // Added later: a record without it offered the model every tool.
  tool_set: z.enum(['full', 'small']).default('full'),
}) satisfies z.ZodType<EngineSettings>; // a new engine setting fails here until its bounds are chosen

/** The agent loop's settings that shape what the model saw. There is deliberately no approval mode here. */
const agentSettingsSchema = z.object({
  maxSteps: int(1, RECORD_LIMITS.steps),
  contextTokens: int(256, 10_000_000),
  outputTokens: int(1, 1_000_000),
  jsonMode: z.boolean(),
  stallSteps: int(1, 1000),
  maxParseFailures: int(1, 1000),
  editFormat: z.enum(EDIT_FORMATS as [EditFormat, ...EditFormat[]]).optional(),
});

const modelSchema = z.object({
  id: text(300),
  kind: z.enum(['webllm', 'openai', 'gguf', 'scripted']),
  /** Adapter facts worth keeping (family, context window), as plain values. */
  params: z.record(text(64), z.union([text(300), z.number(), z.boolean()])),
  seed: int(0, Number.MAX_SAFE_INTEGER),
  temperature: z.number().min(0).max(2),
});

const templateRefSchema = z.object({ template: z.object({ id: text(64), hash }) });
const filesRefSchema = z.object({
  files: z
    .record(text(RECORD_LIMITS.pathChars), text(RECORD_LIMITS.textChars))
    .refine(
      (files) => Object.keys(files).length <= RECORD_LIMITS.files,
      `must hold at most ${RECORD_LIMITS.files} files`,
    ),
});

/** One web request and its answer (see engine/web/web-log.ts). */
const webExchangeSchema = z.object({
  url: text(4096),
  status: int(0, 999).optional(),
  headers: z.object({ 'content-type': text(4096).optional(), location: text(4096).optional() }).optional(),
  // A 5 MB body in base64.
  body: text(7_000_000).optional(),
  failure: z.object({ code: text(32), text: text(2000) }).optional(),
}) satisfies z.ZodType<WebExchange>;

/** One MCP listing or call and its answer (see engine/mcp/mcp-log.ts). */
const mcpExchangeSchema = z.object({
  server: text(64),
  tool: text(256).optional(),
  arguments: text(RECORD_LIMITS.textChars).optional(),
  answer: z
    .object({ text: text(RECORD_LIMITS.mcpChars), isError: z.boolean(), bytes: int(0, 64 * 1024 * 1024) })
    .optional(),
  tools: z
    .array(
      z.object({
        name: text(256),
        description: text(4000),
        inputSchema: z.record(text(256), z.unknown()).optional(),
      }),
    )
    .max(500)
    .optional(),
  failure: z.object({ code: text(32), text: text(2000) }).optional(),
}) satisfies z.ZodType<McpExchange>;

const stepSchema = z.object({
  /** Exactly what the model produced. */
  raw: text(RECORD_LIMITS.rawChars),
  /** The parsed call, for reading; replay parses `raw` again. */
  call: z.object({ tool: text(200), args: z.unknown() }).optional(),
  /** Short hash of the observation: exactly the text the model saw next. */
  resultHash: hash,
  /** Short hash of the workspace tree after the step. */
  workspaceHash: hash,
  /** The observation itself (file form only; replay recomputes it). */
  resultText: text(RECORD_LIMITS.textChars).optional(),
  /** The workspace backend a shell step ran on (`memory`, `node`, `webcontainer`). */
  backend: text(32).optional(),
  /** A shell step's output, which depends on the backend: the file form keeps it, so a replay elsewhere can show where it differs. */
  shellOutput: text(RECORD_LIMITS.textChars).optional(),
  /** Short hash of `shellOutput`: what a link carries instead, so a replay can still tell a changed command output from another change. */
  shellHash: hash.optional(),
  /** Short hash of a shell step's facts (exit code, tally, failing test names; equivalence.ts): what a replay elsewhere must give to count as equivalent. */
  shellFacts: hash.optional(),
  /** What a shell step's programs ran on, beyond the backend's kind (`Node v22.1.0`, `the browser's JavaScript sandbox`). */
  runtime: text(64).optional(),
  /** The workspace root as a shell step's command saw it, when that was not WORKSPACE_PATH (WebContainer's home directory). */
  root: text(RECORD_LIMITS.pathChars).optional(),
  tally: z.object({ passed: int(0, 1e9), failed: int(0, 1e9), source: text(64) }).optional(),
  /**
   * History: a person's answer when the call was put before one, or `unapproved` for a replayed
   * gated step nobody approved, or `unasked` for a gated call a run with no approver (`slm run`)
   * did not make. A replay never takes it for an approval: a gated step runs only when a person
   * approves it there; a recorded denial (or unasked call) is given again (not running is safe).
   */
  approval: z.enum(['approved', 'denied', 'unapproved', 'unasked']).optional(),
  /** The web requests the step's tool made and their answers (body base64), so a replay answers them without the network. */
  web: z.array(webExchangeSchema).max(RECORD_LIMITS.webExchanges).optional(),
  /** The MCP listings and calls the step made and their answers, so a replay answers them without contacting a server. */
  mcp: z.array(mcpExchangeSchema).max(RECORD_LIMITS.mcpExchanges).optional(),
});

/**
 * Which harness answered the file tools: `naive` for the naive harness of the per-step "ACI off"
 * column (naive-engine.ts), as the eval's `off` arm runs it. A record without one ran the engine
 * itself, so every older record keeps its meaning.
 */
export const HARNESSES = ['naive'] as const;

/**
 * Where a session branched from another: a person edited the model's raw output at `step` of
 * the parent and continued from there. The parent is named by its content hash (branch.ts's
 * `sessionHash`), and by where it is kept when known (a saved session's id, a bundled lesson's
 * or example's key); steps before `step` replay the parent's, `step` holds the edited text.
 */
const branchSchema = z.object({
  parentHash: hash,
  parentId: text(200).optional(),
  step: int(1, RECORD_LIMITS.steps),
});

export type BranchPoint = z.infer<typeof branchSchema>;
export type Harness = (typeof HARNESSES)[number];

/** A version 1 session record. */
export const sessionSchema = z.object({
  v: z.literal(RECORD_VERSION),
  engineVersion: text(64),
  createdAt: text(40),
  settings: z.object({ engine: engineSettingsSchema, agent: agentSettingsSchema }),
  harness: z.enum(HARNESSES).optional(),
  /** A person's title and note for the session; they travel with its file and link. */
  title: text(TITLE_CHARS).optional(),
  note: text(NOTE_CHARS).optional(),
  /**
   * Present when the session is a branch of another (an edited step). Its step may lie past the
   * last one: a branch saved before its run reached the edited step (branch.ts's `branchShortOf`).
   */
  branch: branchSchema.optional(),
  /**
   * The steps after which a reload cut the run short, each where it was continued from (in
   * order): steps up to the first were recorded before the first cut, and so on (continued.ts).
   */
  cutShort: z.array(int(1, RECORD_LIMITS.steps)).max(RECORD_LIMITS.steps).optional(),
  model: modelSchema,
  task: text(RECORD_LIMITS.taskChars),
  workspace: z.union([templateRefSchema, filesRefSchema]),
  steps: z.array(stepSchema).max(RECORD_LIMITS.steps),
});

export type Session = z.infer<typeof sessionSchema>;
export type RecordedStep = z.infer<typeof stepSchema>;
export type AgentSettings = z.infer<typeof agentSettingsSchema>;
export type ModelInfo = z.infer<typeof modelSchema>;
export type WorkspaceRef = z.infer<typeof templateRefSchema> | z.infer<typeof filesRefSchema>;

/** The model kind a model id names (`openai:…`, `gguf:…` (llama.cpp), `scripted:…`; anything else runs in WebLLM). */
export function modelKind(id: string): ModelInfo['kind'] {
  if (id.startsWith('openai:')) return 'openai';
  if (id.startsWith('gguf:')) return 'gguf';
  if (id.startsWith('scripted:')) return 'scripted';
  return 'webllm';
}

/**
 * The form that goes into a link: without what replay recomputes (result texts, parsed calls,
 * tallies), so the URL stays short. A shell step keeps its backend and the short hash of its
 * output instead of the output itself (a replay elsewhere can say that the output differs, the
 * session file shows how); an output saying no command could run is kept, since it tells a
 * replay to use a workspace that runs none, and so is one that has no hash (an older record).
 */
export function sharedForm(session: Session): Session {
  return {
    ...session,
    steps: session.steps.map(({ resultText: _t, call: _c, tally: _y, shellOutput, ...kept }) => ({
      ...kept,
      ...(shellOutput !== undefined && (kept.shellHash === undefined || ranNoCommand(shellOutput)) && { shellOutput }),
    })),
  };
}
