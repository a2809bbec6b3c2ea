/**
 * Writes the generated test model (tests/support/gguf/test-model.ts: seeded random weights, not a
 * language model) to a file, for `slm run --model gguf:FILE`, the bench or a browser test:
 *
 *   npx tsx scripts/make-test-gguf.ts [OUT.gguf] [--seed N] [--vocabulary tiny|qwen]
 *
 * OUT defaults to slm-test-tiny-random.gguf in the current directory; `--vocabulary qwen` gives it
 * Qwen's real 151k-token vocabulary (~25 MB; never commit it).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { makeTestModel, TEST_MODEL_FILE } from '../tests/support/gguf/test-model.ts';

const { values, positionals } = parseArgs({
  options: { seed: { type: 'string' }, vocabulary: { type: 'string' } },
  allowPositionals: true,
});
const seed = values.seed === undefined ? undefined : Number(values.seed);
if (seed !== undefined && !Number.isInteger(seed)) throw new Error(`--seed must be a whole number, not ${values.seed}`);
const vocabulary = values.vocabulary ?? 'tiny';
if (vocabulary !== 'tiny' && vocabulary !== 'qwen') throw new Error(`--vocabulary is tiny or qwen, not ${vocabulary}`);
const out = positionals[0] ?? TEST_MODEL_FILE;
const bytes = makeTestModel({ vocabulary, ...(seed !== undefined && { seed }) });
writeFileSync(out, bytes);
console.log(`wrote ${out} (${bytes.length} bytes)`);
