/**
 * The compact form a version 2 share link carries: a session in its shared form (what replay
 * cannot recompute), written with what a replay would rebuild left out. Settings are written
 * only where they differ from `LINK_BASE_SETTINGS`, a fixed table that never changes (a later
 * build with other defaults still reads the same settings out of an old link); the harness only
 * when the record names one; a short title when the sharer's link has room for it (never the
 * note); the branch point when the session is a branch; the steps a reload cut it short after; the model's
 * kind only when its id does not say it; a step's workspace hash only where the step changed the workspace; a shell step's output
 * as its short hash, and that only when it is not the result's hash too, with its facts' hash,
 * runtime and workspace root when recorded (what a replay elsewhere needs to judge equivalence);
 * the web and MCP answers a step recorded (link-outside.ts), so a link's replay answers them
 * offline as a session file's does. Decoding rebuilds the shared-form record, which then goes through the record gate
 * (`checkSession`) like any record from outside.
 */
import { z } from 'zod';
import { fromBase64Url, toBase64Url } from './base64url.ts';
import { HEX } from './hash.ts';
import { fromLinkWeb, linkWebSchema, toLinkWeb } from './link-outside.ts';
import { modelKind, type RecordedStep, type Session } from './record.ts';

/** The settings a v2 link's settings are written against. Frozen with the format: never edit these values. */
export const LINK_BASE_SETTINGS = Object.freeze({
  engine: Object.freeze({
    max_tool_chars: 8000,
    read_window_lines: 120,
    context_window_tokens: 16384,
    read_before_edit: true,
    edit_tolerance: true,
    disabled_rungs: [],
    over_edit_guard: true,
    loop_guard: true,
    loop_guard_repeats: 3,
    file_checkpoints: true,
    syntax_check: true,
    shell_timeout: 120_000,
    shell_timeout_cap: 600_000,
  }),
  agent: Object.freeze({
    maxSteps: 25,
    contextTokens: 4096,
    outputTokens: 512,
    jsonMode: true,
    stallSteps: 6,
    maxParseFailures: 4,
  }),
});

/**
 * Engine settings added after the format froze, each with the value a link without it means
 * (what every build before the setting did). Only ever added to, never edited.
 */
export const LINK_LATER_ENGINE_SETTINGS = Object.freeze({
  gutter_strip: true,
  tool_set: 'full',
  specialist_tools: false,
  web_search_provider: 'duckduckgo',
  web_search_url: '',
  web_allow_private: false,
  web_domains: [],
  web_timeout: 20_000,
  mcp_servers: [],
});

/** What a link's engine settings are written against: the frozen table and the later settings. */
const ENGINE_BASE: Readonly<Record<string, unknown>> = Object.freeze({
  ...LINK_BASE_SETTINGS.engine,
  ...LINK_LATER_ENGINE_SETTINGS,
});

/** One step: the raw output, the result hash followed by the workspace hash when the step changed it, and a shell step's facts. */
const stepSchema = z.object({
  r: z.string(),
  h: z.string(),
  b: z.string().optional(),
  o: z.string().optional(),
  O: z.string().optional(),
  a: z.string().optional(),
  /** A shell step's facts hash (exit code, tally, failing tests), when recorded. */
  f: z.string().optional(),
  /** A shell step's runtime, when recorded. */
  u: z.string().optional(),
  /** A shell step's workspace root, when it was not WORKSPACE_PATH. */
  R: z.string().optional(),
  /** The web requests the step made and their answers (link-outside.ts), when it made any. */
  W: linkWebSchema.optional(),
  /** The MCP listings and calls the step made and their answers, as recorded, when it made any. */
  M: z.array(z.unknown()).optional(),
});

// The record's own fields pass through as they are: the record gate names what is wrong with them.
const linkFormSchema = z.object({
  v: z.unknown().optional(),
  e: z.unknown().optional(),
  c: z.unknown().optional(),
  s: z
    .object({
      engine: z.record(z.string(), z.unknown()).optional(),
      agent: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  /** The harness, only when the record names one (absent: the engine itself). */
  H: z.unknown().optional(),
  /** The session's title, cut short (`LINK_TITLE_CHARS`), when the sharer's link has room for it. */
  T: z.unknown().optional(),
  /** Where the session branched from another, when it is a branch (record.ts's `branch`). */
  B: z.unknown().optional(),
  /** The steps after which a reload cut the run short, when it was (record.ts's `cutShort`). */
  K: z.unknown().optional(),
  m: z.record(z.string(), z.unknown()),
  t: z.unknown().optional(),
  w: z.unknown().optional(),
  p: z.array(stepSchema),
});

export type LinkForm = z.infer<typeof linkFormSchema>;

/** The keys of `settings` whose values differ from `base` (compared as JSON). */
function delta(
  settings: Readonly<Record<string, unknown>>,
  base: Readonly<Record<string, unknown>>,
): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [k, value] of Object.entries(settings))
    if (JSON.stringify(value) !== JSON.stringify(base[k])) out[k] = value;
  return Object.keys(out).length ? out : undefined;
}

/** The compact form of a session in its shared form (see `sharedForm`). */
export function toLinkForm(shared: Session): LinkForm {
  const engine = delta(shared.settings.engine, ENGINE_BASE);
  const agent = delta(shared.settings.agent, LINK_BASE_SETTINGS.agent);
  let before: string | undefined;
  const p = shared.steps.map((s) => {
    const h = hexToLink(s.workspaceHash === before ? s.resultHash : s.resultHash + s.workspaceHash);
    before = s.workspaceHash;
    // A shell step's hash is left out when it is the result's; "" says a shell step has none.
    const o =
      s.backend !== undefined && s.shellHash === s.resultHash
        ? undefined
        : s.shellHash !== undefined
          ? hexToLink(s.shellHash)
          : s.backend !== undefined
            ? ''
            : undefined;
    return {
      r: s.raw,
      h,
      ...(s.backend !== undefined && { b: s.backend }),
      ...(o !== undefined && { o }),
      ...(s.shellOutput !== undefined && { O: s.shellOutput }),
      ...(s.approval !== undefined && { a: s.approval }),
      ...(s.shellFacts !== undefined && { f: hexToLink(s.shellFacts) }),
      ...(s.runtime !== undefined && { u: s.runtime }),
      ...(s.root !== undefined && { R: s.root }),
      ...(s.web !== undefined && { W: toLinkWeb(s.web) }),
      ...(s.mcp !== undefined && { M: s.mcp }),
    };
  });
  return {
    v: shared.v,
    e: shared.engineVersion,
    c: shared.createdAt,
    ...((engine || agent) && { s: { ...(engine && { engine }), ...(agent && { agent }) } }),
    ...(shared.harness !== undefined && { H: shared.harness }),
    ...(shared.title !== undefined && { T: linkTitle(shared.title) }),
    ...(shared.branch !== undefined && { B: shared.branch }),
    ...(shared.cutShort !== undefined && { K: shared.cutShort }),
    m: modelKind(shared.model.id) === shared.model.kind ? (({ kind: _k, ...m }) => m)(shared.model) : shared.model,
    t: shared.task,
    w: shared.workspace,
    p,
  };
}

export type LinkFormRead =
  { readonly ok: true; readonly record: unknown } | { readonly ok: false; readonly problem: string };

/**
 * The record a compact form stands for, still unchecked (the record gate checks it), or what
 * keeps it from being one. A step's hashes are 12 hex digits each: the result's, then the
 * workspace's when the step changed it (the first step always names it).
 */
export function fromLinkForm(value: unknown): LinkFormRead {
  const parsed = linkFormSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, problem: `field ${issue.path.map(String).join('.') || 'the top level'}: ${issue.message}` };
  }
  const f = parsed.data;
  const steps: Partial<RecordedStep>[] = [];
  let before: string | undefined;
  for (const [i, s] of f.p.entries()) {
    const hashes = linkToHex(s.h);
    const o = s.o === undefined || s.o === '' ? s.o : linkToHex(s.o);
    const facts = s.f === undefined ? undefined : linkToHex(s.f);
    if (
      hashes === null ||
      o === null ||
      facts === null ||
      (facts !== undefined && facts.length !== 12) ||
      (o !== undefined && o !== '' && o.length !== 12)
    )
      return { ok: false, problem: `field p.${i}: a hash is not ${HASH_CHARS} base64url characters` };
    if (!(hashes.length === 24 || (hashes.length === 12 && before !== undefined))) {
      return {
        ok: false,
        problem: `field p.${i}.h: must hold two hashes${i === 0 ? ' for the first step' : ' (or one, when the step left the workspace as it was)'}`,
      };
    }
    before = hashes.length === 24 ? hashes.slice(12) : before;
    const web = s.W === undefined ? undefined : fromLinkWeb(s.W);
    if (web !== undefined && !web.ok) return { ok: false, problem: `field p.${i}.W: ${web.problem}` };
    steps.push({
      raw: s.r,
      resultHash: hashes.slice(0, 12),
      workspaceHash: before,
      ...(s.b !== undefined && { backend: s.b }),
      ...(o === undefined ? s.b !== undefined && { shellHash: hashes.slice(0, 12) } : o !== '' && { shellHash: o }),
      ...(s.O !== undefined && { shellOutput: s.O }),
      ...(s.a !== undefined && { approval: s.a as RecordedStep['approval'] }),
      ...(facts !== undefined && { shellFacts: facts }),
      ...(s.u !== undefined && { runtime: s.u }),
      ...(s.R !== undefined && { root: s.R }),
      ...(web !== undefined && { web: web.web as RecordedStep['web'] }),
      ...(s.M !== undefined && { mcp: s.M as RecordedStep['mcp'] }),
    });
  }
  return {
    ok: true,
    record: {
      v: f.v,
      engineVersion: f.e,
      createdAt: f.c,
      settings: { engine: { ...ENGINE_BASE, ...f.s?.engine }, agent: { ...LINK_BASE_SETTINGS.agent, ...f.s?.agent } },
      ...(f.H !== undefined && { harness: f.H }),
      ...(f.T !== undefined && { title: f.T }),
      ...(f.B !== undefined && { branch: f.B }),
      ...(f.K !== undefined && { cutShort: f.K }),
      model: { ...f.m, kind: f.m.kind ?? (typeof f.m.id === 'string' ? modelKind(f.m.id) : undefined) },
      task: f.t,
      workspace: f.w,
      steps,
    },
  };
}

/** Characters of a title a link carries at most: a short title, never the note. */
export const LINK_TITLE_CHARS = 80;

/** `title` as a link carries it: whitespace runs made one space, cut with an ellipsis past LINK_TITLE_CHARS. */
export function linkTitle(title: string): string {
  const one = title.replace(/\s+/g, ' ').trim();
  return one.length <= LINK_TITLE_CHARS ? one : `${one.slice(0, LINK_TITLE_CHARS - 1)}…`;
}

/** base64url characters of one record hash (12 hex digits, 6 bytes). */
const HASH_CHARS = 8;

/** Record hashes (hex, 12 digits each, joined) as a link writes them. */
function hexToLink(hex: string): string {
  return toBase64Url(Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16)));
}

/** The record hashes (hex) a link's hash field holds, or null when it is not whole hashes in base64url. */
function linkToHex(text: string): string | null {
  if (text.length === 0 || text.length % HASH_CHARS !== 0 || /[^A-Za-z0-9_-]/.test(text)) return null;
  return Array.from(fromBase64Url(text), (b) => HEX[b]).join('');
}
