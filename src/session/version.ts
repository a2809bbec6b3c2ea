/**
 * The engine version a session records: the app's package version plus a short hash of what
 * decides the engine's behaviour — the default settings and every tool's name, contract and
 * argument schema. Two builds with the same version string answer the same calls alike; a
 * replay on a build with another version says so when it diverges.
 */
// Only `version`: a named import lets the bundler leave the rest of package.json out of the app.
import { version } from '../../package.json';
import { argsJsonSchema } from '../agent/call-schema.ts';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import { CODING_TOOLS } from '../engine/tools/index.ts';
import { shortHash } from './hash.ts';

/** The app's version from package.json, e.g. `0.1.0`. */
export const APP_VERSION: string = version;

let cached: Promise<string> | undefined;

/** `0.1.0+3f9a0c21d4e8`: the app version and the behaviour hash of this build's engine. */
export function engineVersion(): Promise<string> {
  cached ??= shortHash(
    JSON.stringify({
      settings: DEFAULT_SETTINGS,
      tools: CODING_TOOLS.map((t) => [t.name, t.summary, argsJsonSchema(t.schema)]),
    }),
  ).then((h) => `${APP_VERSION}+${h}`);
  return cached;
}
