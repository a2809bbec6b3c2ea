/**
 * node-llama-cpp is an optional dependency: only `--model gguf:` loads it, and an install may leave
 * it out (`npm ci --omit=optional`, or a platform it has no build for). Its absence becomes a
 * message that says how to install it, not an internal error.
 */

/** The package a failed import could not find (Node's ERR_MODULE_NOT_FOUND for a bare name), or null. */
export function missingPackage(e: unknown): string | null {
  if ((e as NodeJS.ErrnoException | null)?.code !== 'ERR_MODULE_NOT_FOUND') return null;
  // Node names the package; a bundler's resolver may name the whole specifier (`pkg/sub`).
  const found = /Cannot find package '((?:@[^/']+\/)?[^/']+)/.exec((e as Error).message);
  return found ? found[1]! : null;
}

/** What `--model gguf:` says when node-llama-cpp is not installed. */
export const NO_NODE_LLAMA_CPP =
  'llama.cpp for Node (node-llama-cpp, an optional dependency) is not installed here. ' +
  'Install it in the checkout with `npm ci` (without --omit=optional) or `npm install --no-save node-llama-cpp`, ' +
  'or run the model behind an OpenAI-compatible server: --model openai:BASE_URL#MODEL.';
