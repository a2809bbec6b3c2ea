/**
 * `npm run bench [-- --misses] [-- --only TEXT]`: runs every section and prints one table of our
 * figures beside baselines measured in the same run, with the targets marked ✓/✗. Progress goes
 * to stderr, the table to stdout; `--misses` also lists every case that missed, after the table;
 * `--only TEXT` runs only the sections whose title contains TEXT (case-insensitive; repeatable).
 * A section that fails prints its error as a row; the others still run.
 */
import { useNodeWasm } from '../src/platform/node-wasm.ts';
import { browserSection } from './browser.ts';
import { bundleSection } from './bundle.ts';
import { editCorpusSection } from './edits.ts';
import { firstUseSection } from './first-use.ts';
import { ggufSection } from './gguf.ts';
import { gitStatusSection } from './git-status.ts';
import { latencySection } from './latency.ts';
import { patchCorpusSection } from './patch.ts';
import { patchHunksSection } from './patch-hunks.ts';
import { pythonSection } from './python.ts';
import { pathCorpusSection } from './paths.ts';
import { shareSection } from './share.ts';
import { shellLongSection } from './shell-long.ts';
import { syntaxCostSection } from './syntax-cost.ts';
import { toolCallFormatsSection } from './tool-calls.ts';
import { wllamaSection } from './wllama.ts';
import { tokensSection } from './tokens.ts';
import { prefixCacheSection } from './prefix-cache.ts';
import { renderTable, targetSummary, type BenchSection, type BenchSectionDef } from './table.ts';

/** The sections, in print order. New sections (patch corpus, bundle size, share-link size) go here. */
const SECTIONS: readonly BenchSectionDef[] = [
  editCorpusSection('edits-dev.jsonl'),
  editCorpusSection('edits-gutter-variants.jsonl'),
  patchCorpusSection(),
  patchHunksSection(),
  pathCorpusSection(),
  toolCallFormatsSection(),
  latencySection(),
  shellLongSection(),
  gitStatusSection(),
  firstUseSection(),
  syntaxCostSection(),
  shareSection(),
  bundleSection(),
  browserSection(),
  pythonSection(),
  ggufSection(),
  wllamaSection(),
  tokensSection(),
  prefixCacheSection(),
];

async function runSection(def: BenchSectionDef): Promise<BenchSection> {
  const t0 = performance.now();
  process.stderr.write(`bench: ${def.title} …`);
  try {
    const section = await def.run();
    process.stderr.write(` ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    return section;
  } catch (e) {
    process.stderr.write(' failed\n');
    const msg = e instanceof Error ? e.message : String(e);
    return {
      title: def.title,
      unit: 'error',
      rows: [{ figure: 'section failed', ours: msg.split('\n')[0]!, baseline: '' }],
    };
  }
}

/** The values of every `--only TEXT`, lower-cased. */
function onlyFilters(argv: readonly string[]): string[] {
  return argv.flatMap((a, i) => (a === '--only' && argv[i + 1] !== undefined ? [argv[i + 1]!.toLowerCase()] : []));
}

useNodeWasm();
const only = onlyFilters(process.argv);
const chosen = only.length ? SECTIONS.filter((d) => only.some((o) => d.title.toLowerCase().includes(o))) : SECTIONS;
if (!chosen.length)
  throw new Error(
    `no bench section's title contains ${only.map((o) => JSON.stringify(o)).join(' or ')}; titles: ${SECTIONS.map((d) => d.title).join(' | ')}`,
  );
const sections: BenchSection[] = [];
for (const def of chosen) sections.push(await runSection(def));
process.stdout.write(`${renderTable(sections)}\n${targetSummary(sections)}\n`);
if (process.argv.includes('--misses')) {
  for (const s of sections) {
    if (s.details?.length)
      process.stdout.write(`\nmisses in ${s.title}:\n${s.details.map((d) => `  ${d}`).join('\n')}\n`);
  }
}
