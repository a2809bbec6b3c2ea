/**
 * docs/LESSONS.md is generated: it must be exactly what scripts/make-coverage.ts makes from
 * the lessons recorded afresh, and its coverage table must place every mechanism in a lesson.
 */
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../support/node-wasm.ts';
import { COVERAGE_PATH, coverageRows, coverageText } from '../../scripts/make-coverage.ts';
import { REGENERATE_LESSONS } from '../../scripts/make-lessons.ts';
import { MECHANISMS } from '../../src/session/mechanisms.ts';

let fresh: string;

beforeAll(async () => {
  useNodeWasm();
  fresh = coverageText(await coverageRows());
}, 120_000);

describe('docs/LESSONS.md', () => {
  it('is up to date with the lessons, the catalogue and this engine', async () => {
    const onDisk = await readFile(COVERAGE_PATH, 'utf8').catch(() => '');
    if (onDisk !== fresh) expect.fail(`docs/LESSONS.md is out of date; regenerate it with \`${REGENERATE_LESSONS}\`.`);
  });

  it('places every mechanism in a lesson step, with its ACI-off verdict', () => {
    const table = fresh.slice(fresh.indexOf('## Coverage'), fresh.indexOf('\n## 1. '));
    for (const m of MECHANISMS) {
      const row = table.split('\n').find((l) => l.startsWith(`| ${m.name.replace(/\|/g, '\\|')} |`));
      expect(row, m.id).toMatch(/ step \d+.* \| (worse|same|better): /);
    }
    expect(table).not.toContain('**not shown**');
  });
});
