/**
 * The outside tools of a run in the tab: the settings the page sends are checked here with the
 * record's own bounds (they become engine settings, recorded with the session), and turned into
 * what the engine may reach: the web through the web companion (`slm serve-web`) when one is
 * given, else only the SearXNG instance the settings name (web_search), else nothing — and then
 * the web tools answer with what to start — MCP servers over Streamable HTTP straight from the
 * tab, and the tab's model list. The companion's token never enters the settings.
 */
import { z } from 'zod';
import type { McpAccess } from '../engine/mcp/access.ts';
import type { OutsideAccess } from '../engine/outside.ts';
import { httpTransport, sdkMcp } from '../platform/mcp-client.ts';
import type { EngineSettings } from '../engine/settings.ts';
import { companionTransport, searchOnlyTransport } from '../platform/companion-web.ts';
import { engineSettingsSchema } from '../session/record.ts';
import { tabModels } from './tab-models.ts';
import type { OutsideChoice } from './protocol.ts';

const outsideSchema = z.strictObject({
  settings: engineSettingsSchema
    .pick({
      specialist_tools: true,
      web_search_provider: true,
      web_search_url: true,
      web_allow_private: true,
      web_domains: true,
      mcp_servers: true,
    })
    .strict(),
  companion: z
    .strictObject({ url: z.url({ protocol: /^https?$/ }).max(2048), token: z.string().min(1).max(256) })
    .optional(),
});

/** The choice when it is usable; otherwise an Error naming each bad field. */
export function checkOutside(choice: unknown): OutsideChoice {
  const parsed = outsideSchema.safeParse(choice);
  if (!parsed.success) throw new Error(`The outside-tools settings are not usable:\n${z.prettifyError(parsed.error)}`);
  const stdio = parsed.data.settings.mcp_servers.find((s) => !s.url);
  if (stdio)
    throw new Error(
      `The MCP server "${stdio.name}" has no URL: a tab reaches MCP servers over Streamable HTTP only; a server started by a command runs from the slm CLI.`,
    );
  return parsed.data;
}

/** The engine settings the outside tools add to a run. */
export function outsideSettings(choice: OutsideChoice | undefined): Partial<EngineSettings> {
  return choice ? { ...choice.settings } : {};
}

/** MCP servers over Streamable HTTP, straight from the tab (each server must allow this page: CORS). */
function tabMcp(fetchFn: typeof fetch): McpAccess {
  return sdkMcp((server, maxBytes, seen) => {
    if (!server.url)
      throw new Error('a tab reaches MCP servers over Streamable HTTP only; a stdio server runs from the slm CLI');
    return httpTransport(server, maxBytes, seen, fetchFn);
  });
}

/**
 * What the run's engine may reach outside the workspace: the web as above, MCP servers over
 * Streamable HTTP, and this tab's model list for find_models; `fetchFn` is injected in tests.
 */
export function outsideAccess(choice: OutsideChoice | undefined, fetchFn: typeof fetch = fetch): OutsideAccess {
  if (!choice?.settings.specialist_tools) return {};
  const { companion, settings } = choice;
  const rest = { models: tabModels(), mcp: tabMcp(fetchFn) };
  if (companion) return { web: companionTransport(companion, fetchFn), ...rest };
  if (settings.web_search_provider === 'searxng' && settings.web_search_url)
    return { web: searchOnlyTransport(settings.web_search_url, fetchFn), ...rest };
  return rest;
}
