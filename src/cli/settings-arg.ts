/**
 * Engine settings given on the command line (`--settings '{…}'`) or in a batch line: checked
 * key by key against the defaults' types, so a typo is a message naming the known settings,
 * never a silently ignored knob.
 */
import { DEFAULT_SETTINGS, WEB_SEARCH_PROVIDERS, type EngineSettings } from '../engine/settings.ts';
import { checkMcpServers } from './mcp-servers-arg.ts';

export type SettingsCheck =
  { readonly ok: true; readonly settings: Partial<EngineSettings> } | { readonly ok: false; readonly text: string };

const KNOWN = Object.keys(DEFAULT_SETTINGS) as (keyof EngineSettings)[];

function describeType(v: unknown): string {
  if (Array.isArray(v)) return 'a list of strings';
  if (typeof v === 'number') return 'a whole number ≥ 0';
  return `a ${typeof v}`;
}

function fits(expected: unknown, got: unknown): boolean {
  if (Array.isArray(expected)) return Array.isArray(got) && got.every((x) => typeof x === 'string');
  if (typeof expected === 'number') return typeof got === 'number' && Number.isInteger(got) && got >= 0;
  return typeof got === typeof expected;
}

/** Settings whose values are not a plain boolean, number, string or list of strings: each answers a problem or undefined. */
const SPECIAL: Readonly<Record<string, (got: unknown) => string | undefined>> = {
  web_search_provider: (got) =>
    (WEB_SEARCH_PROVIDERS as readonly unknown[]).includes(got)
      ? undefined
      : `web_search_provider must be one of ${WEB_SEARCH_PROVIDERS.map((p) => JSON.stringify(p)).join(', ')}, not ${JSON.stringify(got)}`,
  mcp_servers: checkMcpServers,
};

/** Checks a parsed settings value: a JSON object of known setting names with values of the right type. */
export function checkSettings(value: unknown): SettingsCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      text: `settings must be a JSON object such as {"max_tool_chars": 4000}, not ${JSON.stringify(value)}.`,
    };
  }
  const problems: string[] = [];
  for (const [key, got] of Object.entries(value)) {
    if (!(KNOWN as string[]).includes(key)) {
      problems.push(`unknown setting ${JSON.stringify(key)}`);
      continue;
    }
    const special = SPECIAL[key];
    if (special) {
      const problem = special(got);
      if (problem) problems.push(problem);
      continue;
    }
    const expected = DEFAULT_SETTINGS[key as keyof EngineSettings];
    if (!fits(expected, got)) problems.push(`${key} must be ${describeType(expected)}, not ${JSON.stringify(got)}`);
  }
  if (problems.length) {
    return { ok: false, text: `bad settings: ${problems.join('; ')}. Known settings: ${KNOWN.join(', ')}.` };
  }
  return { ok: true, settings: value as Partial<EngineSettings> };
}

/** Parses and checks the text of a `--settings` option. */
export function parseSettingsArg(text: string): SettingsCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return {
      ok: false,
      text: `--settings is not valid JSON (${(e as Error).message}); give an object such as '{"max_tool_chars": 4000}'.`,
    };
  }
  return checkSettings(value);
}
