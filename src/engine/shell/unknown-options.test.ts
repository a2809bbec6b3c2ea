/**
 * The unknown-option rule for tools that run project code: an option the tool's table does not
 * know as loading nothing, whose value looks like a file, is gated with the option and the file
 * named — in every spelling (`=v`, the next word, an attached short value), for every runner —
 * while everyday test and read-only commands stay free (the share of them that is not allowed is
 * measured and printed, and must stay at or under 5%).
 */
import fc from 'fast-check';
import type { Parser } from 'web-tree-sitter';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../../../tests/support/node-wasm.ts';
import { parserFor } from '../treesitter/loader.ts';
import { decideShell } from './policy.ts';
import { looksLikePath } from './unknown-options.ts';

let parser: Parser;
beforeAll(async () => {
  useNodeWasm();
  parser = await parserFor('bash');
});

// Each row: command → gated by module-option, and the reason names this option word and this file.
const GATED: readonly (readonly [cmd: string, option: string, file: string])[] = [
  ['npx vitest --runner ./x.js', '--runner', './x.js'],
  ['npx vitest --runner=./x', '--runner=./x', './x'],
  ['npx vitest --runner=./x.JS', '--runner=./x.JS', './x.JS'],
  ['npx vitest --runner=./x.node', '--runner=./x.node', './x.node'],
  ['npx vitest --runner=./x.json', '--runner=./x.json', './x.json'],
  ['npx vitest --runner x.mjs', '--runner', 'x.mjs'],
  ['npx vitest run --diff ./x.js', '--diff', './x.js'],
  ['npx vitest run --diff=./x', '--diff=./x', './x'],
  ['npx vitest --sequence.sequencer ./x.mjs', '--sequence.sequencer', './x.mjs'],
  ['npx vitest --coverage.customProviderModule ./x.js', '--coverage.customProviderModule', './x.js'],
  ['npx vitest --typecheck.checker=./x.sh', '--typecheck.checker=./x.sh', './x.sh'],
  ['npx vitest --typecheck.checker ./x.js', '--typecheck.checker', './x.js'],
  ['vitest run --some-new-option lib/loader', '--some-new-option', 'lib/loader'],
  ['npx jest --filter ./f.js', '--filter', './f.js'],
  ['npx jest --prettierPath=./p.cjs', '--prettierPath=./p.cjs', './p.cjs'],
  ['npx jest --snapshotSerializers ./s.js', '--snapshotSerializers', './s.js'],
  ['npx mocha --experimental-loader=./l.mjs', '--experimental-loader=./l.mjs', './l.mjs'],
  ['npx playwright test --global-setup ./g.ts', '--global-setup', './g.ts'],
  ['npm test -- --diff ./x.js', '--diff', './x.js'],
  ['npm test --sequence.sequencer=./x', '--sequence.sequencer=./x', './x'],
  ['yarn test --diff ./d.js', '--diff', './d.js'],
  ['npm test -- --some-new-option=lib/x', '--some-new-option=lib/x', 'lib/x'],
  ['pnpm run test:unit -- --sequence.sequencer=./s.ts', '--sequence.sequencer=./s.ts', './s.ts'],
  ['go vet -vettool ./x ./...', '-vettool', './x'],
  ['go vet -vettool=./x ./...', '-vettool=./x', './x'],
  ['go test -vettool ./x ./...', '-vettool', './x'],
  ['go test --vettool=bin/vet ./...', '--vettool=bin/vet', 'bin/vet'],
  ['go test -pkgdir ./pkgs ./...', '-pkgdir', './pkgs'],
  ['go test ./... -args -myflag ./x', '-myflag', './x'],
  ['cargo test --target ./t.json', '--target', './t.json'],
  ['cargo test -Zcodegen-backend=./b.so', '-Zcodegen-backend=./b.so', 'codegen-backend=./b.so'],
  ['cargo test -- --unknown ./x', '--unknown', './x'],
  ['pytest --cov-config=.coveragerc', '--cov-config=.coveragerc', '.coveragerc'],
  ['pytest -A ./plug.py', '-A', './plug.py'],
  ['python3 -m pytest --some-plugin-option ./x.py tests/', '--some-plugin-option', './x.py'],
  ['npx eslint --format-file ./f.js src', '--format-file', './f.js'],
  ['npx prettier --check --plugin-search-dir ./p src', '--plugin-search-dir', './p'],
];

// Each row: a module named through an option's value in another way → gated, this part in the reason.
const IMPORTS: readonly (readonly [cmd: string, part: string])[] = [
  ['python3 -W error::evil.Warn x.py', 'imports the module "evil"'],
  ['python3 -Werror::pkg.mod.W x.py', 'imports the module "pkg.mod"'],
  ['python3 -W error::evil.Warn -m pytest', 'imports the module "evil"'],
  ['pytest -W error::evil.Warn', 'imports the module "evil"'],
  ['pytest --pythonwarnings=ignore::evil.W', 'imports the module "evil"'],
  ['python3 -X presite=evil x.py', 'imports the module "evil" before the script'],
  ['npx vitest run --coverage.reporter ./x.cjs', 'loads the module "./x.cjs"'],
  ['npm test -- --runner ./x.js', 'loads the module "./x.js"'],
  ['npx jest --coverageReporters=./r.js', 'loads the module "./r.js"'],
];

// Each row: what stays refused whatever the unknown-option rule says.
const REFUSED: readonly (readonly [cmd: string, rule: string])[] = [
  ['npx vitest --execArgv=--inspect', 'runner-option'],
  ['npx vitest --poolOptions.forks.execArgv=--require=./x.js', 'runner-option'],
  ['python3 -W error::evil.Warn -i x.py', 'inline-code'],
  ['npx vitest --runner /tmp/x.js', 'outside-path'],
  ['go vet -vettool=../x ./...', 'outside-path'],
  ['cargo test -- --logfile .git/x', 'protected-path'],
];

// Each row: an option value of the same kind in another tool → decision, rule, a part of the reason.
const ELSEWHERE: readonly (readonly [cmd: string, decision: 'gated' | 'refuse', rule: string, part: string])[] = [
  ['node --env-file=.env x.js', 'gated', 'module-option', "can set node's options (NODE_OPTIONS"],
  ['node --env-file-if-exists .env x.js', 'gated', 'module-option', 'NODE_OPTIONS'],
  ['node --experimental-config-file=node.config.json x.js', 'gated', 'module-option', 'NODE_OPTIONS'],
  ['node --env-file=/etc/environment x.js', 'refuse', 'outside-path', '/etc/environment'],
  ['npx eslint --inspect-config', 'gated', 'opens-port', 'config inspector'],
  ['tree --fromfile /etc/passwd', 'refuse', 'outside-path', '/etc/passwd'],
  ['tree --fromtabfile ../list', 'refuse', 'outside-path', '../list'],
  ['go test -test.outputdir=out ./...', 'gated', 'go-writes', 'writes files'],
  ['go test -fuzzcachedir cache ./...', 'gated', 'go-writes', 'writes files'],
];

describe('option values of the same kind in other tools', () => {
  it.each(ELSEWHERE)('%j → %s (%s)', (cmd, decision, rule, part) => {
    const d = decideShell(parser, cmd);
    expect(d.decision, d.reason).toBe(decision);
    expect(d.rule).toBe(rule);
    expect(d.reason).toContain(part);
  });

  it('tree --fromfile with a listing in the workspace is free', () => {
    expect(decideShell(parser, 'tree --fromfile listing.txt').decision).toBe('allow');
  });
});

describe('an option that is not known to load nothing, with a value that looks like a file', () => {
  it.each(GATED)('%j → gated, naming %s and %s', (cmd, option, file) => {
    const d = decideShell(parser, cmd);
    expect(d.decision, d.reason).toBe('gated');
    expect(d.rule).toBe('option-file');
    expect(d.reason).toContain(
      `${JSON.stringify(option)} names the file ${JSON.stringify(file)}, which the tool may load and run as code`,
    );
    expect(d.writes).toEqual([`whatever ${file} does when it runs (not known before it runs)`]);
  });

  it.each(IMPORTS)('%j → gated: %s', (cmd, part) => {
    const d = decideShell(parser, cmd);
    expect(d.decision, d.reason).toBe('gated');
    expect(d.rule).toBe('module-option');
    expect(d.reason).toContain(part);
  });

  it.each(REFUSED)('%j → refused (%s)', (cmd, rule) => {
    const d = decideShell(parser, cmd);
    expect(d.decision, d.reason).toBe('refuse');
    expect(d.rule).toBe(rule);
  });

  it('cargo test -- --logfile inside the workspace is a report file, listed', () => {
    expect(decideShell(parser, 'cargo test -- --logfile out/test.log')).toMatchObject({
      decision: 'gated',
      rule: 'report-file',
      writes: ['out/test.log'],
    });
  });
});

/** Runner command prefixes, the spellings their parsers read an option value in, and an option name generator none of them knows. */
const RUNNERS: readonly (readonly [prefix: string, long: (name: string, v: string) => string[]])[] = [
  ['npx vitest run', (n, v) => [`--${n}=${v}`, `--${n} ${v}`]],
  ['npx jest', (n, v) => [`--${n}=${v}`, `--${n} ${v}`]],
  ['npx mocha', (n, v) => [`--${n}=${v}`, `--${n} ${v}`]],
  ['npx playwright test', (n, v) => [`--${n}=${v}`, `--${n} ${v}`]],
  ['npm test --', (n, v) => [`--${n}=${v}`, `--${n} ${v}`]],
  ['pytest', (n, v) => [`--${n}=${v}`, `--${n} ${v}`]],
  ['python3 -m pytest', (n, v) => [`--${n}=${v}`, `--${n} ${v}`]],
  ['go test', (n, v) => [`-${n}=${v}`, `-${n} ${v}`, `--${n}=${v}`]],
  ['go vet', (n, v) => [`-${n}=${v}`, `-${n} ${v}`]],
  ['cargo test', (n, v) => [`--${n}=${v}`, `--${n} ${v}`]],
];
const unknownName = fc.stringMatching(/^zz[a-z]{1,8}(?:-[a-z]{1,6})?(?:\.[a-z]{1,6})?$/);
const fileValue = fc.oneof(
  fc.stringMatching(/^\.\/[a-z]{1,6}(?:\.(?:js|JS|mjs|cjs|ts|node|json|sh))?$/),
  fc.stringMatching(/^[a-z]{1,6}\/[a-z]{1,6}$/),
  fc.stringMatching(/^\.[a-z]{1,6}$/),
  fc.stringMatching(/^[a-z]{1,6}\.(?:js|mjs|ts|py|so|json)$/),
);

describe('the rule as a property', () => {
  it('every runner gates every unknown option with a file-like value, in every spelling', () => {
    fc.assert(
      fc.property(fc.constantFrom(...RUNNERS), unknownName, fileValue, fc.nat(2), ([prefix, spell], name, value, k) => {
        const forms = spell(name, value);
        const cmd = `${prefix} ${forms[k % forms.length]}`;
        const d = decideShell(parser, cmd);
        expect(d.decision, `${cmd}: ${d.reason}`).toBe('gated');
        expect(d.reason).toContain(JSON.stringify(value));
      }),
      { numRuns: 400 },
    );
  });

  it('the same unknown options with a value that is a plain name stay free (the property is about files, not options)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...RUNNERS),
        unknownName,
        fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/),
        ([prefix, spell], name, value) => {
          const cmd = `${prefix} ${spell(name, value)[0]!}`;
          expect(decideShell(parser, cmd).decision, cmd).toBe('allow');
        },
      ),
      { numRuns: 200 },
    );
  });

  it.each([
    ['./x', true],
    ['x/y', true],
    ['.x', true],
    ['x.js', true],
    ['x.JS', true],
    ['lib.so', true],
    ['verbose', false],
    ['happy-dom', false],
    ['v8', false],
    ['1.5', false],
    ['10', false],
    ['es2022', false],
    ['x86_64-unknown-linux-gnu', false],
  ] as const)('looksLikePath(%j) is %s', (value, expected) => {
    expect(looksLikePath(value)).toBe(expected);
  });
});

/** Everyday test and read-only commands: each must be allowed. */
const EVERYDAY: readonly string[] = [
  'node --test',
  'node --test test/a.test.js',
  'node --test --test-reporter=spec test/',
  'node --test --test-name-pattern=adds',
  'node scripts/check.js',
  'npm test',
  'npm t',
  'npm test -- --run',
  'npm test -- src/a.test.ts',
  'npm run test:unit',
  'npm test -- -t adds',
  'npm test --silent',
  'yarn test',
  'pnpm test',
  'pnpm run test -- --reporter=verbose',
  'npx vitest run',
  'npx vitest run src/a.test.ts',
  'npx vitest --reporter verbose',
  'npx vitest run --reporter=dot src/',
  'npx vitest run -t "adds two" src/a.test.ts',
  'npx vitest run --coverage',
  'npx vitest run --coverage.enabled --coverage.include=src/**',
  'npx vitest run --project unit',
  'npx vitest run --bail 1 --retry 2 tests/',
  'npx vitest run --testTimeout 20000 src/',
  'npx vitest run --no-isolate src/',
  'npx vitest run --exclude "e2e/**" src/',
  'npx vitest run --typecheck.checker vue-tsc',
  'npx vitest list src/',
  'npx vitest run --changed HEAD~1',
  'npx vitest related src/a.ts',
  'npx vitest run --shard=1/3',
  'npx vitest run --silent src/a.test.ts',
  'npx vitest run --environment jsdom src/',
  'npx jest',
  'npx jest src/a.test.js',
  'npx jest --ci --coverage',
  'npx jest -t adds src/',
  'npx jest --runInBand tests/',
  'npx jest --findRelatedTests src/a.js',
  'npx jest --testPathPattern=src/a',
  'npx mocha',
  'npx mocha test/a.spec.js',
  'npx mocha --recursive test/',
  'npx mocha -g adds test/',
  'npx mocha --timeout 5000 test/',
  'npx mocha --spec test/a.spec.js',
  'npx playwright test',
  'npx playwright test e2e/a.spec.ts',
  'npx playwright test --project=chromium e2e/',
  'npx playwright test -g login --workers 2',
  'npx playwright test --reporter=line',
  'npx tsc --noEmit',
  'npx tsc --noEmit -p tsconfig.json',
  'npx eslint src',
  'npx eslint --ext .ts,.tsx src',
  'npx eslint --max-warnings 0 src/',
  'npx prettier --check src',
  'npx prettier --check "src/**/*.ts"',
  'pytest',
  'pytest -q',
  'pytest -q tests/',
  'pytest -k name tests/test_a.py',
  'pytest -x -vv tests/',
  'pytest -ra tests/',
  'pytest tests/test_a.py::test_b',
  'pytest --maxfail=1 --tb=short tests/',
  'pytest --cov=src tests/',
  'pytest --lf',
  'pytest -m "not slow" tests/',
  'pytest -W error::DeprecationWarning tests/',
  'pytest --deselect tests/test_a.py::test_b tests/',
  'python3 -m pytest -q tests/',
  'python -m pytest tests/',
  'python3 -m unittest discover -s tests',
  'python3 tools/run.py',
  'python3 -W ignore x.py',
  'python3 -X importtime x.py',
  'go test ./...',
  'go test -v ./...',
  'go test -run TestAdd ./pkg/...',
  'go test -count=1 -race ./...',
  'go test -coverpkg=./... ./...',
  'go test -v ./... -args -test.v',
  'go vet ./...',
  'go test -bench . ./...',
  'go test -tags integration ./...',
  'go run ./cmd/tool --input ./data.txt',
  'go run . -config ./x.yaml',
  'cargo test',
  'cargo test -- --nocapture',
  'cargo test --release',
  'cargo test -p core',
  'cargo test --test integration',
  'cargo test --target x86_64-unknown-linux-gnu',
  'cargo test -- --test-threads 1',
  'cargo test add -- --exact',
  'ls -la',
  'cat README.md',
  'grep -rn TODO src',
  'git log --oneline -5',
  'git status',
  'git diff',
  'rg -n foo src/',
  'find . -name "*.ts"',
  'wc -l src/a.ts',
  'head -20 src/a.ts',
];

describe('everyday commands stay free', () => {
  it(`at most 5% of ${EVERYDAY.length} everyday test and read-only commands are not allowed`, () => {
    const notAllowed = EVERYDAY.map((cmd) => [cmd, decideShell(parser, cmd)] as const).filter(
      ([, d]) => d.decision !== 'allow',
    );
    const share = notAllowed.length / EVERYDAY.length;
    console.log(
      `everyday commands not allowed: ${notAllowed.length} / ${EVERYDAY.length} (${(share * 100).toFixed(1)}%)${notAllowed.map(([c, d]) => `\n  ${c} → ${d.decision} (${d.rule})`).join('')}`,
    );
    expect(share).toBeLessThanOrEqual(0.05);
  });

  it.each(EVERYDAY)('%j is allowed', (cmd) => {
    const d = decideShell(parser, cmd);
    expect(d.decision, d.reason).toBe('allow');
  });
});
