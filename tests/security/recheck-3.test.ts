/**
 * A third independent re-check of issue 12, kept as regression rows: option values that name
 * files outside the workspace or inside .git/ and .slmcode/, names read from files, jq's `$ ENV`,
 * git configuration outside the repository, and xargs options the runner does not carry out.
 * Every row held when it was written.
 */
import type { Parser } from 'web-tree-sitter';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../support/node-wasm.ts';
import { parserFor } from '../../src/engine/treesitter/loader.ts';
import { decideShell } from '../../src/engine/shell/policy.ts';

/** refuse: never runs; not-allow: refused or gated (a person decides). */
const ROWS: Readonly<Record<string, readonly (readonly [string, 'refuse' | 'not-allow'])[]>> = {
  'module and config values outside the workspace': [
    ['npx vitest run --config=file:///tmp/v.ts', 'refuse'],
    ['npx vitest run --typecheck.tsconfig=/tmp/t.json', 'refuse'],
    ['npx vitest run --merge-reports=.git', 'refuse'],
    ['npx jest --snapshotResolver /tmp/x.js', 'refuse'],
    ['npx jest --testSequencer /tmp/x.js', 'refuse'],
    ['npx jest --transform \'{"x":"/tmp/t.js"}\'', 'not-allow'],
    ['npx mocha --package /tmp/package.json', 'refuse'],
    ['npx playwright test --global-timeout 1 --tsconfig /tmp/t.json', 'refuse'],
    ['node --require file:/tmp/x.js a.js', 'refuse'],
    ['node --experimental-loader file:///tmp/l.mjs a.js', 'refuse'],
    ['node --env-file-if-exists=./.slmcode/e a.js', 'refuse'],
    ['node --snapshot-blob /tmp/b a.js', 'refuse'],
    ['python3 -Xpycache_prefix=/tmp a.py', 'refuse'],
    ['python3 -X pycache_prefix=.git a.py', 'refuse'],
    ['pytest -o log_file=.git/x', 'refuse'],
    ['pytest -o pythonpath=/tmp', 'not-allow'],
    ['go test -overlay=/tmp/o.json ./...', 'refuse'],
    ['go test -exec=./x ./...', 'refuse'],
    ['go test -ldflags=-extldflags=-Wl,-plugin=/tmp/x.so ./...', 'refuse'],
    ['cargo test --config \'build.rustc-wrapper="/tmp/x"\'', 'refuse'],
    ['npm test --onl=/tmp/x.js', 'refuse'],
    ['npm test --userc /tmp/x', 'refuse'],
    ['npx eslint --resolve-plugins-relative-to .git .', 'refuse'],
    ['python3 -m unittest discover -t /tmp', 'refuse'],
  ],
  'names read from files': [
    ['find -D tree -files0-from a.txt', 'not-allow'],
    ['find -O3 -files0-from -', 'not-allow'],
    ['du --files0-f a.txt', 'not-allow'],
    ['file --files-fr a.txt', 'not-allow'],
    ['b2sum --check=a.txt', 'not-allow'],
    ['strings -f @a.txt', 'refuse'],
  ],
  'jq environment': [
    ["jq -n '$\tENV'", 'refuse'],
    ["jq -n '. as $ENV | $ENV'", 'refuse'],
    ["jq -n 'def f: $ENV; f'", 'refuse'],
    ['jq -n \'@sh "\\(env)"\'', 'refuse'],
    ['jq -L/tmp -n 1', 'refuse'],
  ],
  'git outside the repository': [
    ['git config --glob --list', 'refuse'],
    ['git config --inc -l', 'refuse'],
    ['git config list --includes', 'refuse'],
    ['git --no-pager config --gl -l', 'refuse'],
    ['git init --separate-git-dir /tmp/g', 'refuse'],
    ['git clone --reference /tmp/r . y', 'refuse'],
    ['git stash push --pathspec-from-file=/tmp/x', 'refuse'],
    ['git ls-remote /tmp/x', 'refuse'],
    ['git archive --remote=/tmp/x HEAD', 'refuse'],
    ['git check-attr --source=HEAD -a /etc/x', 'refuse'],
    ['git hash-object -w --path=/tmp/x a.txt', 'refuse'],
  ],
  'xargs options the runner does not carry out': [
    ['ls | xargs xargs cat', 'refuse'],
    ['ls d | xargs -I{} {} a.txt', 'refuse'],
    ['ls d | xargs -I{} -n1 cat {}', 'refuse'],
    ["ls d | xargs -d '\\n' cat", 'refuse'],
    ['ls d | xargs -s 10 cat', 'refuse'],
    ['ls d | xargs -x cat', 'refuse'],
    ['ls d | xargs -l cat', 'refuse'],
    ['find . -name a.txt | xargs -I{} xargs -a {} cat', 'refuse'],
  ],
};

let parser: Parser;
beforeAll(async () => {
  useNodeWasm();
  parser = await parserFor('bash');
});

describe('recheck 3', () => {
  for (const [cls, rows] of Object.entries(ROWS)) {
    it(`${cls}: none is allowed`, () => {
      const wrong = rows
        .map(([cmd, want]) => ({ cmd, want, got: decideShell(parser, cmd) }))
        .filter((r) => r.got.decision === 'allow' || (r.want === 'refuse' && r.got.decision !== 'refuse'))
        .map((r) => `${JSON.stringify(r.cmd)} → ${r.got.decision} (${r.got.rule}), expected ${r.want}`);
      expect(wrong).toEqual([]);
    });
  }
});
