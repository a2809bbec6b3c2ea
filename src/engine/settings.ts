/** Engine settings: the knobs the spec names, with its defaults. All are plain data so a session can record them. */

export interface EngineSettings {
  /** Every result is capped at this many characters (head + tail kept). */
  readonly max_tool_chars: number;
  /** Lines ws_read shows when no limit is given. */
  readonly read_window_lines: number;
  /** The model's context window in tokens; one read may use at most ~15% of it. */
  readonly context_window_tokens: number;
  /** Overwrites need a read of the file in this session first. */
  readonly read_before_edit: boolean;
  /** ws_edit walks the match ladder; false = byte-exact only. */
  readonly edit_tolerance: boolean;
  /**
   * ws_edit and ws_patch strip a ws_read gutter pasted on every line of old_str (or of a hunk)
   * and say so; false keeps it, so such an edit misses as written. Only while edit_tolerance is on.
   */
  readonly gutter_strip: boolean;
  /** Ladder rungs switched off by id (for the "ACI off" comparisons and settings re-runs). */
  readonly disabled_rungs: readonly string[];
  /** Refuse whole-file-style rewrites through ws_edit. */
  readonly over_edit_guard: boolean;
  /** Answer repeated identical calls with a nudge. */
  readonly loop_guard: boolean;
  /** How many identical calls in a row trigger the nudge. */
  readonly loop_guard_repeats: number;
  /** Keep what ws_delete, ws_write and ws_edit replaced. */
  readonly file_checkpoints: boolean;
  /** Run the post-edit syntax check. */
  readonly syntax_check: boolean;
  /** Default shell timeout in ms, and the cap a call may ask for. */
  readonly shell_timeout: number;
  readonly shell_timeout_cap: number;
  /** The tools the model is offered: `full` (every coding tool) or `small` (SMALL_TOOL_SET, for small models' windows). */
  readonly tool_set: ToolSet;
  /** Add the specialist tools (web_search, web_fetch, mcp_call, find_models) to the coding set. */
  readonly specialist_tools: boolean;
  /** Which search provider web_search asks. */
  readonly web_search_provider: WebSearchProvider;
  /** The provider's base URL; empty: DuckDuckGo's HTML results page (SearXNG needs one). */
  readonly web_search_url: string;
  /** Let web_fetch and web_search reach loopback and private addresses. */
  readonly web_allow_private: boolean;
  /** Host names web_fetch may reach (a name also admits its subdomains); empty: any public host. */
  readonly web_domains: readonly string[];
  /** The deadline of one web_fetch, web_search or mcp_call call (redirects and body included), in ms. */
  readonly web_timeout: number;
  /** The Model Context Protocol servers mcp_call may reach. */
  readonly mcp_servers: readonly McpServerConfig[];
}

/** The search providers web_search can ask. */
export const WEB_SEARCH_PROVIDERS = ['duckduckgo', 'searxng'] as const;
export type WebSearchProvider = (typeof WEB_SEARCH_PROVIDERS)[number];

/**
 * One MCP server: `url` for Streamable HTTP, or `command` + `args` for stdio (started by the
 * host, inside its sandbox where it has one). Calls to a server not marked `read_only` are gated.
 */
export interface McpServerConfig {
  readonly name: string;
  readonly url?: string;
  readonly command?: string;
  readonly args?: readonly string[];
  readonly read_only: boolean;
}

export type ToolSet = 'full' | 'small';

/** The `small` tool set: reading, searching, editing, writing, one command, the tests (the loop adds done). */
export const SMALL_TOOL_SET: readonly string[] = Object.freeze([
  'ws_read',
  'ws_list',
  'ws_grep',
  'ws_edit',
  'ws_patch',
  'ws_write',
  'ws_shell',
  'ws_test',
]);

export const DEFAULT_SETTINGS: EngineSettings = Object.freeze({
  max_tool_chars: 8000,
  read_window_lines: 120,
  context_window_tokens: 16384,
  read_before_edit: true,
  edit_tolerance: true,
  gutter_strip: true,
  disabled_rungs: [],
  over_edit_guard: true,
  loop_guard: true,
  loop_guard_repeats: 3,
  file_checkpoints: true,
  syntax_check: true,
  shell_timeout: 120_000,
  shell_timeout_cap: 600_000,
  specialist_tools: false,
  web_search_provider: 'duckduckgo',
  web_search_url: '',
  web_allow_private: false,
  web_domains: [],
  web_timeout: 20_000,
  mcp_servers: [],
  tool_set: 'full',
});

/** Rough characters per token, used where no tokenizer is at hand (the estimate says so where shown). */
export const CHARS_PER_TOKEN = 4;

/** The hard ceiling of a single read: ~15% of the context window, in characters. */
export function readCeilingChars(s: EngineSettings): number {
  return Math.floor(s.context_window_tokens * 0.15 * CHARS_PER_TOKEN);
}
