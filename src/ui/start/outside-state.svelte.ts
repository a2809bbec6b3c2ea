/**
 * The outside tools' settings as the start screen edits them: whether the specialist tools
 * (web_search, web_fetch, mcp_call, find_models) are offered, the search provider and its URL,
 * the domain allowlist, whether private addresses may be reached, the MCP servers, and the web
 * companion (`slm serve-web`) this tab reaches the web through. From them: the run's
 * `OutsideChoice` (its settings are recorded with the session; the companion's token never is,
 * nor is it kept across reloads), what is wrong with them, and the notice the start screen shows
 * when the tools are on with no way to the web.
 */
import { WEB_COMPANION_COMMAND, type OutsideChoice, type OutsideSettings } from '../../worker/client.ts';
import type { KeyValueStore } from './remembered.ts';

/** One MCP server row of the form (Streamable HTTP: a tab reaches no other kind). */
export interface McpServerRow {
  name: string;
  url: string;
  readOnly: boolean;
}

const KEY = 'slmcode:outside-tools';

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The host names of the allowlist field: split at commas, spaces and line breaks. */
export function domainList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((d) => d.trim().toLowerCase())
    .filter((d) => d !== '');
}

export class OutsideState {
  specialistTools = $state(false);
  provider = $state<'duckduckgo' | 'searxng'>('duckduckgo');
  searchUrl = $state('');
  /** The allowlist as typed (host names separated by commas or spaces). */
  domains = $state('');
  allowPrivate = $state(false);
  companionUrl = $state('');
  /** Never stored: typed in each visit, as `slm serve-web` printed it. */
  companionToken = $state('');
  mcpServers = $state<McpServerRow[]>([]);

  /** The first thing that keeps these settings from being used, with what to do; null when usable. */
  readonly problem: string | null = $derived(this.#problem());
  /** The run's outside tools; undefined while they are off. */
  readonly choice: OutsideChoice | undefined = $derived(this.#choice());
  /** Shown on the start screen while the tools are on and no web companion is set. */
  readonly notice: string | null = $derived(this.#notice());

  constructor(private readonly storage?: KeyValueStore | null) {
    this.#load();
  }

  addServer(): void {
    this.mcpServers.push({ name: '', url: '', readOnly: true });
  }

  removeServer(index: number): void {
    this.mcpServers.splice(index, 1);
  }

  /** Keeps everything but the token for the next visit; the start screen calls it on every change. */
  remember(): void {
    const kept = {
      specialistTools: this.specialistTools,
      provider: this.provider,
      searchUrl: this.searchUrl,
      domains: this.domains,
      allowPrivate: this.allowPrivate,
      companionUrl: this.companionUrl,
      mcpServers: this.mcpServers.map((s) => ({ ...s })),
    };
    try {
      this.storage?.setItem(KEY, JSON.stringify(kept));
    } catch {
      // full or refused: the fields are simply not kept
    }
  }

  #load(): void {
    let v: Record<string, unknown>;
    try {
      v = JSON.parse(this.storage?.getItem(KEY) ?? '{}') as Record<string, unknown>;
    } catch {
      return;
    }
    if (!v || typeof v !== 'object') return;
    const str = (x: unknown): x is string => typeof x === 'string' && x.length <= 2048;
    if (typeof v.specialistTools === 'boolean') this.specialistTools = v.specialistTools;
    if (v.provider === 'duckduckgo' || v.provider === 'searxng') this.provider = v.provider;
    if (str(v.searchUrl)) this.searchUrl = v.searchUrl;
    if (str(v.domains)) this.domains = v.domains;
    if (typeof v.allowPrivate === 'boolean') this.allowPrivate = v.allowPrivate;
    if (str(v.companionUrl)) this.companionUrl = v.companionUrl;
    if (Array.isArray(v.mcpServers))
      this.mcpServers = v.mcpServers
        .slice(0, 32)
        .filter((s): s is Record<string, unknown> => !!s && typeof s === 'object')
        .filter((s) => str(s.name) && str(s.url))
        .map((s) => ({ name: s.name as string, url: s.url as string, readOnly: s.readOnly !== false }));
  }

  #problem(): string | null {
    if (!this.specialistTools) return null;
    const url = this.companionUrl.trim();
    if (url && !isHttpUrl(url))
      return `The web companion's address ${JSON.stringify(url)} is not an http URL; give the one slm serve-web printed (e.g. http://127.0.0.1:8787).`;
    if (url && !this.companionToken.trim())
      return 'Enter the token slm serve-web printed at start (it is not kept across reloads).';
    if (this.provider === 'searxng' && !isHttpUrl(this.searchUrl.trim()))
      return 'SearXNG needs its address: give the search URL (the instance whose /search?q=…&format=json answers).';
    if (this.provider === 'duckduckgo' && this.searchUrl.trim() && !isHttpUrl(this.searchUrl.trim()))
      return 'The search URL is not an http URL; leave it empty for DuckDuckGo.';
    const names = new Set<string>();
    for (const [i, s] of this.mcpServers.entries()) {
      if (!s.name.trim()) return `MCP server ${i + 1} needs a name (mcp_call names it).`;
      if (names.has(s.name.trim()))
        return `Two MCP servers are called ${JSON.stringify(s.name.trim())}; give each its own name.`;
      names.add(s.name.trim());
      if (!isHttpUrl(s.url.trim()))
        return `MCP server ${JSON.stringify(s.name)} needs its Streamable HTTP URL (a tab reaches no stdio server).`;
    }
    return null;
  }

  #settings(): OutsideSettings {
    return {
      specialist_tools: true,
      web_search_provider: this.provider,
      web_search_url: this.searchUrl.trim(),
      web_allow_private: this.allowPrivate,
      web_domains: domainList(this.domains),
      mcp_servers: this.mcpServers.map((s) => ({ name: s.name.trim(), url: s.url.trim(), read_only: s.readOnly })),
    };
  }

  #choice(): OutsideChoice | undefined {
    if (!this.specialistTools) return undefined;
    const url = this.companionUrl.trim();
    const token = this.companionToken.trim();
    return { settings: this.#settings(), ...(url && token && { companion: { url, token } }) };
  }

  #notice(): string | null {
    if (!this.specialistTools || this.companionUrl.trim()) return null;
    const search =
      this.provider === 'searxng' && this.searchUrl.trim()
        ? 'web_search asks the SearXNG instance directly (it must allow this page), but web_fetch'
        : 'web_fetch and web_search';
    return (
      `The specialist tools are on, but no web companion is set: ${search} will answer that they cannot reach the web. ` +
      `Run \`${WEB_COMPANION_COMMAND} --origin ${origin()}\` and enter the address and token it prints under Outside tools.`
    );
  }
}

/** This page's origin, for the companion's --origin. */
function origin(): string {
  return typeof location === 'undefined' ? 'http://localhost:5173' : location.origin;
}
