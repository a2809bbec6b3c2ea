/**
 * Whether node-llama-cpp (an optional dependency) is installed, for the tests that run llama.cpp:
 * without it they skip and print why, as `npm ci --omit=optional` leaves them nothing to run.
 */
import { createRequire } from 'node:module';

function installed(): boolean {
  try {
    createRequire(import.meta.url).resolve('node-llama-cpp');
    return true;
  } catch {
    return false;
  }
}

/** True when node-llama-cpp can be imported here. */
export const HAS_NODE_LLAMA_CPP = installed();

/** Prints why a llama.cpp test is skipped, once per file that calls it; true when the test should run. */
export function needsNodeLlamaCpp(what: string): boolean {
  if (!HAS_NODE_LLAMA_CPP)
    console.log(`${what} skipped: node-llama-cpp (an optional dependency) is not installed; npm ci installs it`);
  return HAS_NODE_LLAMA_CPP;
}
