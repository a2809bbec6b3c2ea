/**
 * The JSON scanner against the runtime's own JSON.parse: on strict JSON (no comments) they
 * must agree on every text, valid or not. (Messages and positions are the scanner's own, so
 * they are the same in every runtime; check.test.ts pins them.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkJson, isJsoncPath } from './json.ts';

const parses = (t: string): boolean => {
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
};

/** JSON texts, then small corruptions of them: a character dropped, duplicated or replaced. */
const corrupted = fc
  .tuple(fc.json(), fc.nat(), fc.constantFrom('drop', 'dup', ',', '}', ']', '"', ':', '\\', '-', '.', 'e', '\n', '\t'))
  .map(([t, at, how]) => {
    const i = at % (t.length + 1);
    if (how === 'drop') return t.slice(0, i) + t.slice(i + 1);
    if (how === 'dup') return t.slice(0, i) + t.slice(i, i + 1) + t.slice(i);
    return t.slice(0, i) + how + t.slice(i);
  });

describe('checkJson', () => {
  it('accepts every JSON text', () => {
    fc.assert(
      fc.property(fc.json(), fc.constantFrom(0, 2, '\t'), (t, indent) => {
        const pretty = JSON.stringify(JSON.parse(t), null, indent);
        expect(checkJson(t, false).status).toBe('ok');
        expect(checkJson(pretty, false).status).toBe('ok');
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with JSON.parse on corrupted texts without comments', () => {
    fc.assert(
      fc.property(corrupted, (t) => {
        fc.pre(!t.includes('//') && !t.includes('/*'));
        expect(checkJson(t, false).status).toBe(parses(t) ? 'ok' : 'error');
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with JSON.parse on short texts over the JSON alphabet', () => {
    const alphabet = fc.constantFrom(...'{}[],:"\\ 0123-+.eEtrufalsn\nx'.split(''));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 12 }), (chars) => {
        const t = chars.join('');
        expect(checkJson(t, false).status).toBe(parses(t) ? 'ok' : 'error');
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['tsconfig.json', true],
    ['packages/app/tsconfig.build.json', true],
    ['jsconfig.json', true],
    ['.vscode/launch.json', true],
    ['app/.vscode/tasks.json', true],
    ['.devcontainer/devcontainer.json', true],
    ['settings.jsonc', true],
    ['package.json', false],
    ['my-tsconfig.json', false],
    ['vscode/launch.json', false],
    ['.vscode/nested/x.json', false],
  ])('isJsoncPath(%s) = %s', (path, want) => {
    expect(isJsoncPath(path)).toBe(want);
  });
});
