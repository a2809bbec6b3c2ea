/**
 * The engine: one session of the ACI over one workspace. `call` is the whole pipeline —
 * look up the tool, accept argument aliases, validate against the schema, apply the loop
 * guard, run, post-edit syntax check, and cap the result — and it never throws for bad input:
 * every failure is a result whose text says what happened and what to do next.
 */
import type { Workspace } from './workspace.ts';
import { DEFAULT_SETTINGS, SMALL_TOOL_SET, type EngineSettings } from './settings.ts';
import { SessionState } from './state.ts';
import type { ToolDef } from './tool.ts';
import type { ToolContext } from './context.ts';
import { resolvePath } from './jail.ts';
import { fail, type Note, type ToolResult } from './result.ts';
import { truncateHeadTail } from './truncate.ts';
import { callKey, loopGuardNudge, trackCall } from './loop-guard.ts';
import { schemaErrorText } from './schema-error.ts';
import { normalizeArgs } from './aliases.ts';
import { argTypes, coerceArgs, exampleArgs } from './arg-types.ts';
import type { OutsideAccess } from './outside.ts';
import { recordingTransport } from './web/web-log.ts';
import { recordingMcp } from './mcp/mcp-log.ts';

/** Runs after a writing tool succeeds (the post-edit syntax check); may rewrite the result and revert the change. */
export type PostEditHook = (ctx: ToolContext, tool: string, result: ToolResult) => Promise<ToolResult>;

export interface EngineOptions {
  readonly workspace: Workspace;
  readonly tools: readonly ToolDef<any>[];
  readonly settings?: Partial<EngineSettings>;
  readonly postEdit?: PostEditHook;
  /** What the host lets the specialist tools reach (the web, MCP servers); absent: nothing outside. */
  readonly outside?: OutsideAccess;
}

/** Per-call options from the caller (the agent loop, the console), never from the model. */
export interface CallOptions {
  /** A person approved this call; gated shell commands run only with it. */
  readonly approved?: boolean;
}

export class Engine {
  readonly settings: EngineSettings;
  readonly state = new SessionState();
  readonly tools: ReadonlyMap<string, ToolDef<any>>;
  readonly ctx: ToolContext;

  constructor(private readonly opts: EngineOptions) {
    this.settings = Object.freeze({ ...DEFAULT_SETTINGS, ...opts.settings });
    const offered = (t: ToolDef<any>) => this.settings.tool_set !== 'small' || SMALL_TOOL_SET.includes(t.name);
    this.tools = new Map(opts.tools.filter(offered).map((t) => [t.name, t]));
    const ws = opts.workspace;
    this.ctx = {
      ws,
      settings: this.settings,
      state: this.state,
      resolve: (path, op) => resolvePath(ws, path, op),
      ...(opts.outside && { outside: this.recorded(opts.outside) }),
    };
  }

  /** The host's outside access with every web request and MCP exchange logged in the session state, for the session record. */
  private recorded(outside: OutsideAccess): OutsideAccess {
    return {
      ...outside,
      ...(outside.web && { web: recordingTransport(outside.web, this.state.webLog) }),
      ...(outside.mcp && { mcp: recordingMcp(outside.mcp, this.state.mcpLog) }),
    };
  }

  get workspace(): Workspace {
    return this.opts.workspace;
  }

  async call(name: string, rawArgs: unknown, options: CallOptions = {}): Promise<ToolResult> {
    const def = this.tools.get(name);
    if (!def) {
      return fail(
        `Unknown tool ${JSON.stringify(name)}. Available tools: ${[...this.tools.keys()].join(', ')}. Call one of them by its exact name.`,
        [{ kind: 'refusal', text: `unknown tool ${name}`, detail: 'unknown-tool' }],
      );
    }
    if (rawArgs === undefined || rawArgs === null) rawArgs = {};
    if (typeof rawArgs !== 'object' || Array.isArray(rawArgs)) {
      return fail(
        `${name} was not run — its arguments must be a JSON object like {"path": "src/index.js"}, not ${JSON.stringify(rawArgs)}.`,
        [{ kind: 'schema', text: 'arguments are not an object' }],
      );
    }
    const notes: Note[] = [];
    const normalized = normalizeArgs(def, rawArgs as Record<string, unknown>);
    const { aliasNotes, disableSyntax } = normalized;
    const { args, notes: coerceNotes } = coerceArgs(def.schema, normalized.args);
    notes.push(...aliasNotes, ...coerceNotes);

    if (this.settings.loop_guard) {
      const times = trackCall(this.state, callKey(name, args));
      if (times >= this.settings.loop_guard_repeats) {
        return fail(loopGuardNudge(name, times), [
          { kind: 'loop-guard', text: `identical ${name} call #${times}`, detail: String(times) },
        ]);
      }
    }

    const parsed = def.schema.safeParse(args);
    if (!parsed.success) {
      const known = schemaKeys(def);
      return fail(schemaErrorText(name, parsed.error, args, known, exampleCall(def), argTypes(def.schema)), [
        ...notes,
        { kind: 'schema', text: parsed.error.issues.map((i) => i.path.join('.') || i.message).join(', ') },
      ]);
    }

    const ctx: ToolContext = options.approved ? { ...this.ctx, approved: true } : this.ctx;
    let result: ToolResult;
    try {
      result = await def.run(parsed.data, ctx);
    } catch (e) {
      // A tool never throws for bad input; reaching here is a bug. Keep the session alive and say so.
      const msg = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      result = fail(
        `${name} failed with an internal error (${msg}). Nothing was changed by this call. Try a different approach or report it.`,
        [{ kind: 'refusal', text: 'internal error', detail: 'internal' }],
      );
    }
    if (
      def.writes &&
      result.ok &&
      result.changes.length &&
      this.settings.syntax_check &&
      !disableSyntax &&
      this.opts.postEdit
    ) {
      result = await this.opts.postEdit(ctx, name, result);
    }
    return this.cap({ ...result, notes: [...notes, ...result.notes] });
  }

  /** Applies max_tool_chars to the final text. */
  private cap(result: ToolResult): ToolResult {
    const t = truncateHeadTail(result.text, this.settings.max_tool_chars);
    if (!t.truncated) return result;
    return {
      ...result,
      text: t.text,
      notes: [
        ...result.notes,
        {
          kind: 'truncated',
          text: `result cut to ${this.settings.max_tool_chars} of ${t.total} characters`,
          detail: String(t.total),
        },
      ],
    };
  }
}

function schemaKeys(def: ToolDef<any>): string[] {
  const shape = (def.schema as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

function exampleCall(def: ToolDef<any>): string {
  return `${def.name} ${JSON.stringify(exampleArgs(def.schema))}`;
}
