/**
 * `slm run --model gguf:` where node-llama-cpp (an optional dependency) is not installed: the run
 * says how to install it and exits 2, like any model that cannot load. Its absence is made with a
 * module hook that answers the import of node-llama-cpp as Node answers a package that is not there.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, runCli } from './cli-process.ts';

afterAll(cleanup);

const HOOK = `export async function resolve(specifier, context, next) {
  if (specifier !== 'node-llama-cpp') return next(specifier, context);
  const e = new Error("Cannot find package 'node-llama-cpp' imported from " + context.parentURL);
  e.code = 'ERR_MODULE_NOT_FOUND';
  throw e;
}`;
const REGISTER = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)});`;

describe('slm run --model gguf: without node-llama-cpp', () => {
  it('says how to install it, with exit 2', async () => {
    const env = { ...process.env, NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(REGISTER)}` };
    const r = await runCli(['run', '--model', 'gguf:model.gguf', '--task', 't', '--root', '.'], '', env);
    expect(r.stderr).toMatch(
      /^slm run: --model gguf:model\.gguf: llama\.cpp for Node \(node-llama-cpp, an optional dependency\) is not installed here\. Install it in the checkout with `npm ci`/,
    );
    expect(r.stderr).toContain('usage:\n  slm run --model SPEC');
    expect(r.code).toBe(2);
  }, 120_000);
});
