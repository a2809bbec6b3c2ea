/** What every builtin task's project shares: an ES-module package whose tests run on node:test. */
import { file } from '../task.ts';

/** The package.json of a task's project: `npm test` runs `node --test`. */
export function packageJson(name: string): string {
  return `${JSON.stringify({ name, version: '1.0.0', type: 'module', scripts: { test: 'node --test' } }, null, 2)}\n`;
}

/** The first lines of every test file. */
export const TEST_HEAD = file`
import { test } from 'node:test';
import assert from 'node:assert/strict';
`;
