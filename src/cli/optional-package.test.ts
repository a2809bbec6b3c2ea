import { describe, expect, it } from 'vitest';
import { missingPackage, NO_NODE_LLAMA_CPP } from './optional-package.ts';

/** The error a real import fails with. */
async function importError(specifier: string): Promise<unknown> {
  try {
    await import(/* @vite-ignore */ specifier);
  } catch (e) {
    return e;
  }
  throw new Error(`${specifier} imported`);
}

describe('missingPackage', () => {
  it('names the package a bare import could not find', async () => {
    expect(missingPackage(await importError('slm-no-such-package'))).toBe('slm-no-such-package');
    expect(missingPackage(await importError('@slm-none/no-such-package/sub'))).toBe('@slm-none/no-such-package');
  });

  it.each([
    ['a missing relative file', async () => importError('./no-such-file.ts')],
    ['another error', async () => new Error("Cannot find package 'x'")],
    ['not an error', async () => 'ERR_MODULE_NOT_FOUND'],
  ])('is null for %s', async (_why, make) => {
    expect(missingPackage(await make())).toBeNull();
  });

  it('says how to install node-llama-cpp and what to use instead', () => {
    expect(NO_NODE_LLAMA_CPP).toMatch(/npm ci.*npm install --no-save node-llama-cpp.*--model openai:BASE_URL#MODEL/);
  });
});
