/** Locates ../shared/corpus/ (beside the checkout, as CI lays it out). */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const candidates = [resolve(here, '../../../shared/corpus'), resolve(here, '../../shared/corpus')];

export const CORPUS_DIR = candidates.find((c) => existsSync(c)) ?? candidates[0]!;

export function corpusPath(name: string): string {
  return resolve(CORPUS_DIR, name);
}

export function hasCorpus(name: string): boolean {
  return existsSync(corpusPath(name));
}

export function readJsonl<T>(name: string): T[] {
  return readFileSync(corpusPath(name), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

export function readJson<T>(name: string): T {
  return JSON.parse(readFileSync(corpusPath(name), 'utf8')) as T;
}
