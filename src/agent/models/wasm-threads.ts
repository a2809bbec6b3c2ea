/**
 * How many threads llama.cpp in WebAssembly gets: several only where the page is cross-origin
 * isolated (threads share memory through SharedArrayBuffer), one per physical core — half the
 * logical ones, as llama.cpp advises, since more threads than cores spin against each other —
 * and at most 8.
 */
export function threadCount(isolated: boolean, logicalCores: number): number {
  return isolated ? Math.max(1, Math.min(8, Math.floor(logicalCores / 2))) : 1;
}
