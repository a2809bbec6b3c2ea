/**
 * The generated test model as a file, made once and reused: the Qwen-vocabulary model takes
 * seconds to generate, and several test files (and the bench) load it. Files live in the
 * system's temp directory under a name hashed from the options and the generator's own source,
 * so a change to the generator makes a new file; they are never committed.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { access, mkdir, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestModel, type TestModelOptions } from './test-model.ts';

const GENERATOR = ['test-model.ts', 'qwen-vocab.ts', 'writer.ts'];

/** The cache directory the generated models are kept in. */
const TEST_MODEL_CACHE = join(tmpdir(), 'slmcode-test-gguf');

/** The path of the model for `options`, generated on first use. */
export async function testModelFile(options: TestModelOptions = {}): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify(options));
  for (const f of GENERATOR) hash.update(readFileSync(new URL(f, import.meta.url)));
  const file = join(TEST_MODEL_CACHE, `test-${options.vocabulary ?? 'tiny'}-${hash.digest('hex').slice(0, 16)}.gguf`);
  try {
    await access(file);
    return file;
  } catch {
    // Not made yet: write it under a private name, then move it in (other test workers may race).
  }
  await mkdir(TEST_MODEL_CACHE, { recursive: true });
  const part = `${file}.${process.pid}.${Date.now()}.part`;
  await writeFile(part, makeTestModel(options));
  await rename(part, file);
  return file;
}
