/**
 * Option values that name files and modules, writes into protected areas, tools with their own
 * option parsers, awk and jq programs, xargs input and git's repository options: one table per
 * class (command, decision, rule, a part of the reason), the paths gated decisions list, and a
 * property over option spellings (bundled, attached, `=value`, abbreviated where the tool's
 * parser abbreviates) of every path- or module-valued option.
 */
import fc from 'fast-check';
import type { Parser } from 'web-tree-sitter';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../../../tests/support/node-wasm.ts';
import { parserFor } from '../treesitter/loader.ts';
import { xargsInputFinding } from './find-xargs.ts';
import { decideShell } from './policy.ts';
import type { Word } from './words.ts';

let parser: Parser;
beforeAll(async () => {
  useNodeWasm();
  parser = await parserFor('bash');
});

type Row = readonly [cmd: string, decision: 'allow' | 'gated' | 'refuse', rule: string, reasonPart: string];

const DEVICES: readonly Row[] = [
  ['cat /dev/stdin', 'refuse', 'device-path', '"/dev/stdin" is a device or kernel file'],
  ['cat /dev/fd/0', 'refuse', 'device-path', '/dev/fd/0'],
  ['cat /proc/self/environ', 'refuse', 'device-path', '/proc/self/environ'],
  ['wc -c /sys/kernel/notes', 'refuse', 'device-path', '/sys/kernel/notes'],
  ['node /dev/stdin', 'refuse', 'device-path', '/dev/stdin'],
  ['python3 /dev/stdin', 'refuse', 'device-path', '/dev/stdin'],
  ['bash /dev/stdin', 'refuse', 'device-path', '/dev/stdin'],
  ["awk '{print}' /dev/stdin", 'refuse', 'device-path', '/dev/stdin'],
  ['sort -T /proc x', 'refuse', 'device-path', '"/proc"'],
  ['cat < /dev/stdin', 'refuse', 'device-path', '/dev/stdin'],
  ['echo 1 | node -', 'refuse', 'stdin-code', 'stdin'],
  ['python3 - < a.py', 'refuse', 'stdin-code', 'stdin'],
  ['cat /dev/null', 'allow', 'free', 'read-only'],
];

const PROTECTED: readonly Row[] = [
  ['cp README.md .slmcode/hooks.json', 'refuse', 'protected-path', 'harness control state'],
  ['mkdir .git/hooks', 'refuse', 'protected-path', 'inside .git/'],
  ['touch .git/x', 'refuse', 'protected-path', 'inside .git/'],
  ['touch sub/.git/config', 'refuse', 'protected-path', 'inside .git/'],
  ['touch .GIT/config', 'refuse', 'protected-path', 'inside .git/'],
  ['touch .SlmCode/x', 'refuse', 'protected-path', 'harness control state'],
  ['touch src/../.git/x', 'refuse', 'protected-path', 'inside .git/'],
  ['mv a .slmcode/', 'refuse', 'protected-path', 'harness control state'],
  ['mv .git/config x', 'refuse', 'protected-path', 'inside .git/'],
  ['tar -xf x.tar -C .git', 'refuse', 'protected-path', 'inside .git/'],
  ['tar xf x.tar -C .git', 'refuse', 'protected-path', 'inside .git/'],
  ['tar -xf x.tar .git/config', 'refuse', 'protected-path', 'inside .git/'],
  ['ln -s README.md .git/hooks/pre-commit', 'refuse', 'protected-path', 'inside .git/'],
  ['ln .git/config cfg', 'refuse', 'protected-path', '".git/config"'],
  ['cp x .slm*/a', 'refuse', 'write-pattern', 'is a pattern'],
  ['cp -t .git/ a', 'refuse', 'protected-path', 'inside .git/'],
  ['cp --target-dir=.git a', 'refuse', 'protected-path', 'inside .git/'],
  ['chmod -R 755 .', 'refuse', 'protected-path', 'under .git/ and .slmcode/'],
  ['truncate -s 0 .git/index', 'refuse', 'protected-path', 'inside .git/'],
  ['split -l 10 big.txt .git/x', 'refuse', 'protected-path', 'inside .git/'],
  ['gzip .git/index', 'refuse', 'protected-path', 'inside .git/'],
  ['unzip a.zip -d .git', 'refuse', 'protected-path', 'inside .git/'],
  ['zip -r .git/x.zip src', 'refuse', 'protected-path', 'inside .git/'],
  ['7z x a.7z -o.git', 'refuse', 'protected-path', 'inside .git/'],
  ['patch -o .git/x a.txt fix.diff', 'refuse', 'protected-path', 'inside .git/'],
  ['curl -o .git/hooks/pre-commit https://x.example', 'refuse', 'protected-path', 'inside .git/'],
  ['wget -O .slmcode/config.yaml https://x.example', 'refuse', 'protected-path', 'harness control state'],
  ['touch .slmcode/scratch/notes.md', 'gated', 'writer', 'writes files'],
  ['cp a b', 'gated', 'writer', 'writes files'],
];

const WRITERS: readonly Row[] = [
  ['tar -xf x.tar --to-command=sh', 'refuse', 'writer-flag', 'runs a program'],
  ['tar -xf x.tar --xform=s,^,.git/,', 'refuse', 'writer-flag', 'renames the members'],
  ['split --filter=sh big.txt', 'refuse', 'writer-flag', 'runs a shell command'],
  ['zip -TT sh a.zip f', 'refuse', 'writer-flag', 'runs a program'],
  ['curl -K cfg https://x.example', 'refuse', 'writer-flag', 'further options'],
  ['wget -r https://x.example', 'refuse', 'writer-flag', 'paths the server chooses'],
  ['wget -e robots=off https://x.example', 'refuse', 'writer-flag', 'wgetrc commands'],
  ['mkdir -m 4755 x', 'refuse', 'system', 'setuid'],
  ['make -C /tmp', 'refuse', 'outside-path', '"/tmp"'],
  ['make -f/tmp/Makefile', 'refuse', 'outside-path', '/tmp/Makefile'],
  ['less /etc/passwd', 'refuse', 'outside-path', '/etc/passwd'],
  ['make test', 'gated', 'build', 'builds the project'],
  ['install -m 4755 a b', 'refuse', 'system', 'setuid'],
];

const MODULES: readonly Row[] = [
  ['node --test --test-reporter=./evil.mjs', 'gated', 'module-option', 'loads the module "./evil.mjs"'],
  ['node --test --test-reporter=/tmp/evil.mjs', 'refuse', 'outside-path', '/tmp/evil.mjs'],
  ['node --test --test-reporter=spec', 'allow', 'free', "runs the project's tests"],
  ['node --require ./setup.js a.js', 'gated', 'module-option', '"./setup.js"'],
  ['node -r /tmp/x.js a.js', 'refuse', 'outside-path', '/tmp/x.js'],
  ['node --import=data:text/javascript,1 a.js', 'refuse', 'inline-code', 'inline data: text'],
  ['npx vitest run --reporter=./r.ts', 'gated', 'module-option', '"./r.ts"'],
  ['npx vitest run --reporter dot', 'allow', 'free', "runs the project's tests"],
  ['npx vitest run --environment=./env.ts', 'gated', 'module-option', '"./env.ts"'],
  ['npx vitest run --environment jsdom', 'allow', 'free', "runs the project's tests"],
  ['npx vitest run -c vitest.config.ts', 'gated', 'module-option', '"vitest.config.ts"'],
  ['npx vitest run -tc ../x', 'refuse', 'outside-path', '"../x"'],
  ['npx jest --setupFiles=/tmp/x.js', 'refuse', 'outside-path', '/tmp/x.js'],
  ['npx jest --testEnvironment=jsdom', 'allow', 'free', "runs the project's tests"],
  ['npx jest --reporters=./r.js', 'gated', 'module-option', '"./r.js"'],
  ['npx mocha -r ts-node/register', 'gated', 'module-option', '"ts-node/register"'],
  ['npx mocha --reporter spec', 'allow', 'free', "runs the project's tests"],
  ['npx mocha -n inspect', 'refuse', 'runner-option', 'passes options to node'],
  ['npx playwright test --reporter=./r.ts', 'gated', 'module-option', '"./r.ts"'],
  ['npx playwright test --reporter=list', 'allow', 'free', "runs the project's tests"],
  ['npm test -- --reporter=./r.js', 'gated', 'module-option', '"./r.js"'],
  ['pytest -p evil', 'gated', 'module-option', '"evil"'],
  ['pytest -p no:cacheprovider', 'allow', 'free', "runs the project's tests"],
  ['pytest -o addopts=-pevil', 'gated', 'module-option', 'addopts'],
  ['npx eslint -f ./fmt.js src', 'gated', 'module-option', '"./fmt.js"'],
  ['npx eslint -f json src', 'allow', 'free', 'lints without writing'],
  ['npx prettier --plugin=./p.js --check .', 'gated', 'module-option', '"./p.js"'],
];

const OUTPUTS: readonly Row[] = [
  ['npx vitest run --outputFile=.git/x', 'refuse', 'protected-path', 'inside .git/'],
  ['npx vitest run --output-file=/tmp/x', 'refuse', 'outside-path', '/tmp/x'],
  ['npx vitest run --outputFile.json=r.json', 'gated', 'report-file', 'report or output file'],
  ['npx vitest run --coverage.reportsDirectory=.git/c', 'refuse', 'protected-path', 'inside .git/'],
  ['npx vitest run --coverage', 'allow', 'free', "runs the project's tests"],
  ['npx vitest run --api.port=3000', 'gated', 'opens-port', 'opens a port or a browser'],
  ['npx vitest --ui', 'gated', 'opens-port', 'opens a port'],
  ['npx vitest --open', 'gated', 'opens-port', 'opens a port'],
  ['npx playwright test --output=.git/x', 'refuse', 'protected-path', 'inside .git/'],
  ['node --test --test-reporter-destination=.git/x', 'refuse', 'protected-path', 'inside .git/'],
  ['node --test --test-reporter-destination=stdout', 'allow', 'free', "runs the project's tests"],
  ['pytest --basetemp=/tmp/x', 'refuse', 'outside-path', '/tmp/x'],
  ['pytest --basetemp=.git/x', 'refuse', 'protected-path', 'inside .git/'],
  ['pytest --basetemp=tmp', 'gated', 'report-file', 'empties and writes'],
  ['pytest --log-file=.git/log', 'refuse', 'protected-path', 'inside .git/'],
  ['pytest -o cache_dir=.git/c', 'refuse', 'protected-path', 'inside .git/'],
  ['pytest --debug=.slmcode/d.log', 'refuse', 'protected-path', 'harness control state'],
  ['pytest --confcutdir=/', 'refuse', 'outside-path', 'the absolute path "/"'],
  ['pytest /etc', 'refuse', 'outside-path', '"/etc"'],
  ['pytest tests/test_a.py::test_b', 'allow', 'free', "runs the project's tests"],
  ['npm test --logs-dir=.git/x', 'refuse', 'protected-path', 'inside .git/'],
  ['npm test --logs-dir=logs', 'gated', 'writer-flag', 'writes logs or caches'],
  ['npm test --cache=.slmcode/c', 'refuse', 'protected-path', 'harness control state'],
  ['npm ci --cache /tmp/c', 'refuse', 'outside-path', '/tmp/c'],
  ['npm test --workspace=../x', 'refuse', 'outside-path', 'climbs out'],
  ['cargo test --manifest-path=/tmp/Cargo.toml', 'refuse', 'outside-path', '/tmp/Cargo.toml'],
  ['cargo test --target-dir=.git/t', 'refuse', 'protected-path', 'inside .git/'],
  ['go test -C /tmp ./...', 'refuse', 'outside-path', '"/tmp"'],
  ['go test -coverprofile=.git/c ./...', 'refuse', 'protected-path', 'inside .git/'],
  ['go test -ldflags=-extld=sh ./...', 'refuse', 'runner-exec', 'through another program'],
  ['npx tsc --noEmit --outDir .git/x', 'refuse', 'protected-path', 'inside .git/'],
];

const OWN_PARSERS: readonly Row[] = [
  ['xxd -ps in out', 'refuse', 'writer-operand', 'writes its output to "out"'],
  ['xxd -rs in out', 'refuse', 'writer-operand', 'writes its output to "out"'],
  ['xxd -s 4 in out', 'refuse', 'writer-operand', '"out"'],
  ['xxd -is in', 'allow', 'free', 'read-only'],
  ['xxd -r -p hex.txt', 'allow', 'free', 'read-only'],
  ['xxd -c 8 /etc/passwd', 'refuse', 'outside-path', '/etc/passwd'],
  ['tree -Lo 2 out.txt', 'refuse', 'writer-flag', '"-Lo" writes its output'],
  ['tree -oL out 2', 'refuse', 'writer-flag', '"-oL"'],
  ['tree -L 2 src', 'allow', 'free', 'read-only'],
  ['tree --gitfile=/etc/x', 'refuse', 'outside-path', '/etc/x'],
  ['od -w /etc/passwd', 'refuse', 'outside-path', '/etc/passwd'],
  ['column -t /etc/passwd', 'refuse', 'outside-path', '/etc/passwd'],
];

const AWK: readonly Row[] = [
  ['awk \'{print "x",\n"y" > "/tmp/f"}\' a', 'refuse', 'awk-program', 'redirects print output'],
  ['awk \'{print "x" ||\n 1 > "f"}\' a', 'refuse', 'awk-program', 'redirects print output'],
  ['awk \'{printf("%s",\n$1) > "f"}\' a', 'refuse', 'awk-program', 'redirects print output'],
  ['awk \'BEGIN{ARGV[1]="/etc/passwd";ARGC=2}{print}\' a', 'refuse', 'awk-program', 'uses ARGV'],
  ['awk \'{ x = SYMTAB["ENVIRON"] }\' f', 'refuse', 'awk-program', 'uses SYMTAB'],
  ["awk '{print $1,\n$2}' f", 'allow', 'free', 'filters text only'],
  ["awk 'NR>1\n{print}' f", 'allow', 'free', 'filters text only'],
  ["awk '$1 > 5 {print $2}' f", 'allow', 'free', 'filters text only'],
  ['awk -f /tmp/p.awk f', 'refuse', 'outside-path', '/tmp/p.awk'],
];

const JQ: readonly Row[] = [
  ['jq -nrf prog.jq', 'gated', 'jq-program-file', 'cannot check'],
  ['jq -nrf /proc/self/environ', 'refuse', 'device-path', '/proc/self/environ'],
  ['jq . /etc/passwd --args a', 'refuse', 'outside-path', '/etc/passwd'],
  ["jq -n '$ARGS' --args /etc/passwd", 'allow', 'free', 'reads JSON'],
  ["jq -n --rawfile a /proc/self/environ '$a'", 'refuse', 'device-path', '/proc/self/environ'],
  ["jq '$ENV' f", 'refuse', 'jq-program', '$ENV'],
  ['jq -n \'"x" | modulemeta\'', 'refuse', 'jq-program', 'modulemeta'],
  ["jq 'input_filename' f.json", 'allow', 'free', 'reads JSON'],
  ['jq -L /tmp . f', 'refuse', 'outside-path', '/tmp'],
  ['jq --frob .', 'refuse', 'jq-option', '"--frob"'],
];

/** Flags a tool passes on to another (go's compiler and linker flags) and settings written as name=value. */
const NESTED: readonly Row[] = [
  ['go test -ldflags=-memprofile=.git/hooks/x ./...', 'refuse', 'protected-path', 'names .git/'],
  ['go build -gcflags=all=-trace=.slmcode/t .', 'refuse', 'protected-path', 'names .slmcode/'],
  [
    'go test -gcflags=all=-cpuprofile=/tmp/x ./...',
    'gated',
    'go-tool-flags',
    'passes flags to the Go compiler, assembler or linker',
  ],
  ['go build -ldflags="-s -w" .', 'gated', 'go-tool-flags', 'can read and write files of their own'],
  ['go test ./...', 'allow', 'free', "runs the project's tests"],
  ['python3 -X pycache_prefix=/tmp a.py', 'refuse', 'outside-path', '"/tmp"'],
  ['python3 -X pycache_prefix=../x a.py', 'refuse', 'outside-path', 'climbs out'],
  ['python3 -X pycache_prefix=build/pyc a.py', 'allow', 'free', 'runs a script file'],
  ['python3 -X importtime a.py', 'allow', 'free', 'runs a script file'],
];

/** Names of files to read that come from a file, stdin or a response file: never on the command line, so never jailed. */
const NAMES_FROM: readonly Row[] = [
  ['wc --files0-from=names0', 'gated', 'names-from', 'reads the names of the files to read from "names0"'],
  ['wc --files0-from -', 'gated', 'names-from', 'from stdin'],
  ['sort --files0-from=- -u', 'gated', 'names-from', 'from stdin'],
  ['du --files0-from names0', 'gated', 'names-from', 'can name files outside the workspace'],
  ['file -f names', 'gated', 'names-from', 'from "names"'],
  ['file --files-from=names', 'gated', 'names-from', 'from "names"'],
  ['sha256sum -c SUMS', 'gated', 'names-from', 'the lists it is given'],
  ['md5sum -bc SUMS', 'gated', 'names-from', '"-bc"'],
  [
    'find -files0-from names0 -name "*.ts"',
    'gated',
    'names-from',
    'reads the names of the starting points from "names0"',
  ],
  ['find -files0-from /etc/passwd', 'refuse', 'outside-path', '/etc/passwd'],
  ['find . -newermm /etc/passwd', 'refuse', 'outside-path', '/etc/passwd'],
  ['find . -newerBm ../x', 'refuse', 'outside-path', 'climbs out'],
  ['find . -newermt 2026-01-01', 'allow', 'free', 'read-only'],
  ['find . -newermm src/a.ts -name "*.ts"', 'allow', 'free', 'read-only'],
  ['strings @resp', 'refuse', 'response-file', 'reads more arguments from the file "resp"'],
  ['strings -- @resp', 'refuse', 'response-file', '"resp"'],
  ['strings -n 8 @/etc/passwd', 'refuse', 'response-file', '"/etc/passwd"'],
  ['strings ./@resp', 'allow', 'free', 'read-only'],
  ['sha256sum a.txt b.txt', 'allow', 'free', 'read-only'],
  ['wc -l src/a.ts', 'allow', 'free', 'read-only'],
  ['file README.md', 'allow', 'free', 'read-only'],
];

const XARGS: readonly Row[] = [
  ['xargs -a list.txt cat', 'refuse', 'xargs-option', 'xargs -a is not an option ws_shell carries out'],
  ['xargs -a /proc/self/environ wc', 'refuse', 'xargs-option', 'xargs -a is not an option'],
  ['find src -name "*.ts" | xargs wc -l', 'allow', 'free', 'every stage'],
];

const GIT: readonly Row[] = [
  ['git -C . log --oneline', 'allow', 'free', 'read-only git'],
  ['git -C evil status', 'refuse', 'git-elsewhere', "the workspace's own repository"],
  ['git --git-dir=evil status', 'refuse', 'git-elsewhere', 'another repository'],
  ['git --work-tree=src status', 'refuse', 'git-elsewhere', 'another repository'],
  ['git --bare log', 'refuse', 'git-elsewhere', 'another repository'],
  ['git --namespace=x log', 'refuse', 'git-elsewhere', 'another repository'],
  ['git --super-prefix=x/ status', 'refuse', 'git-elsewhere', 'another repository'],
  ['git --config-env=core.pager=X log', 'refuse', 'git-config', 'injects configuration'],
  ['git --exec-path', 'refuse', 'git-config', 'helper programs'],
  ['git --help', 'refuse', 'git-tool', 'manual'],
  ['git log --help', 'refuse', 'git-tool', 'manual'],
  ['git -h', 'allow', 'free', 'git information'],
  ['git blame --contents=/etc/passwd a.ts', 'refuse', 'outside-path', '/etc/passwd'],
  ['git blame --contents /etc/passwd a.ts', 'refuse', 'outside-path', '/etc/passwd'],
  ['git blame -S /etc/revs a.ts', 'refuse', 'outside-path', '/etc/revs'],
  ['git grep -f /etc/passwd', 'refuse', 'outside-path', '/etc/passwd'],
  ['git diff -O/etc/order', 'refuse', 'outside-path', '/etc/order'],
  ['git config -f /etc/gitconfig --list', 'refuse', 'outside-path', '/etc/gitconfig'],
  ['git config -f .gitmodules --list', 'allow', 'free', 'read-only git'],
  ['git config core.fsmonitor "touch pwned"', 'refuse', 'git-config', 'core.fsmonitor'],
  ['git config --global user.name x', 'refuse', 'git-config', 'outside the workspace'],
  ['git config --global --list', 'refuse', 'git-config', 'reads or writes configuration outside the workspace'],
  ['git config --system -l', 'refuse', 'git-config', '"--system"'],
  ['git config -f evil.cfg --includes --list', 'refuse', 'git-config', 'follows include.path'],
  ['git config --local --list', 'allow', 'free', 'read-only git'],
  ['git apply --unsafe-paths x.patch', 'refuse', 'git-flag', 'lets a patch write outside the repository'],
  ['git apply --directory=/tmp x.patch', 'refuse', 'outside-path', '"--directory=/tmp"'],
  ['git am --directory ../x a.mbox', 'refuse', 'outside-path', 'climbs out'],
  ['git fast-import --export-marks=/tmp/m', 'refuse', 'outside-path', '/tmp/m'],
  ['git tag -F /tmp/msg v1', 'refuse', 'outside-path', '/tmp/msg'],
  ['git commit --template=../t', 'refuse', 'outside-path', 'climbs out'],
  ['git add --pathspec-from-file=/tmp/p', 'refuse', 'outside-path', '/tmp/p'],
  ['git push ../other main', 'refuse', 'outside-path', 'climbs out'],
  ['git push origin main', 'gated', 'git-network', 'talks to a remote'],
  ['git push file:///tmp/x', 'refuse', 'outside-path', 'file:///tmp/x'],
  ['git commit -F/tmp/msg', 'refuse', 'outside-path', '"-F/tmp/msg"'],
  ['git notes add -F/tmp/x', 'refuse', 'outside-path', '/tmp/x'],
  ['git rebase -x make HEAD~2', 'refuse', 'git-flag', 'runs a program after every commit'],
  ['git bisect run make test', 'refuse', 'git-tool', 'runs a program at every step'],
  ['git commit -mfix', 'gated', 'git-write', 'changes the repository'],
  ['git clone file://localhost/etc y', 'refuse', 'outside-path', 'outside the workspace'],
  ['git fetch git@example.org:a/b.git', 'gated', 'git-network', 'talks to a remote'],
  ['git submodule foreach make', 'refuse', 'git-tool', 'runs a shell command in every submodule'],
  ['git maintenance register', 'refuse', 'git-config', 'system scheduler'],
  ['git commit -m "see ../docs"', 'gated', 'git-write', 'changes the repository'],
  ['git config --get user.name', 'allow', 'free', 'read-only git'],
  ['git config -f .git/config core.pager sh', 'refuse', 'git-config', 'configuration file'],
  ['git config user.name x', 'gated', 'git-write', '"git config"'],
  ['git cat-file --filters HEAD:a', 'refuse', 'git-flag', 'filter programs'],
  ['git clone https://x.example/y .git/x', 'refuse', 'protected-path', 'inside .git/'],
  ['git worktree add ../x', 'refuse', 'outside-path', 'climbs out'],
  ['git format-patch -o .git/p HEAD~1', 'refuse', 'protected-path', 'inside .git/'],
];

describe.each([
  ['device and kernel files', DEVICES],
  ['protected write targets', PROTECTED],
  ['writers that run programs', WRITERS],
  ['module-loading options', MODULES],
  ['output, report and port options', OUTPUTS],
  ['tools with their own option parsers', OWN_PARSERS],
  ['awk programs', AWK],
  ['jq', JQ],
  ['xargs', XARGS],
  ['names read from files', NAMES_FROM],
  ['flags nested in values', NESTED],
  ['git repository options', GIT],
] as const)('%s', (_name, rows) => {
  it.each(rows)('%j → %s (%s)', (cmd, decision, rule, part) => {
    const d = decideShell(parser, cmd);
    expect({ decision: d.decision, rule: d.rule }).toEqual({ decision, rule });
    expect(d.reason).toContain(part);
  });
});

describe('gated decisions list the paths they would write', () => {
  const rows: readonly (readonly [string, readonly string[]])[] = [
    ['cp a b', ['b']],
    ['cp a b dir/', ['dir/']],
    ['mv a b', ['a', 'b']],
    ['touch x y', ['x', 'y']],
    ['mkdir -p src/new', ['src/new']],
    ['ln -s src/a.ts link', ['link']],
    ['chmod +x run.sh', ['run.sh']],
    ['tar -czf backup.tgz ./data', ['backup.tgz']],
    ['tar -xf x.tar -C out', ['out', "the archive's members under out (not known before it runs)"]],
    ['gzip a.txt', ['a.txt', 'a.txt.gz']],
    ['curl -sSo out.txt https://x.example', ['out.txt']],
    ['curl https://x.example', []],
    ['less README.md', []],
    [
      'npm install',
      ['node_modules/', 'package.json', 'package-lock.json', "whatever the packages' install scripts write"],
    ],
    ['git commit -m x', ['.git/ (the repository)']],
    ['git rm src/a.ts', ['.git/ (the repository)', 'src/a.ts']],
    ['npx vitest run -u', ['snapshot files next to the tests (__snapshots__/ …)']],
    ['pytest --junitxml=r.xml', ['r.xml']],
    ['pytest --debug', ['pytestdebug.log']],
    ['jq -f prog.jq data.json', []],
  ];
  it.each(rows)('%j writes %j', (cmd, writes) => {
    const d = decideShell(parser, cmd);
    expect(d.decision).toBe('gated');
    expect(d.writes).toEqual(writes);
  });

  it('allowed and refused decisions carry no list', () => {
    expect(decideShell(parser, 'ls').writes).toBeUndefined();
    expect(decideShell(parser, 'touch .git/x').writes).toBeUndefined();
  });
});

describe('xargsInputFinding: xargs may hand a file reader only paths a lister printed', () => {
  const w = (line: string): Word[] =>
    line.split(' ').map((text) => ({ text, raw: text, quoted: [...text].map(() => false), plain: true }));
  const rows: readonly (readonly [string[], string | null])[] = [
    [['find src -name x', 'xargs wc -l'], null],
    [['git ls-files', 'grep ts', 'xargs cat'], null],
    [['rg --files', 'head -n 5', 'xargs wc -l'], null],
    [['ls src', 'xargs cat'], null],
    [['echo /proc/self/environ', 'xargs cat'], 'can name any file'],
    [['cat list.txt', 'xargs cat'], 'can name any file'],
    [['ls -l', 'xargs cat'], 'can name any file'],
    [['find . -printf x', 'xargs cat'], 'can name any file'],
    [['git ls-files', 'grep -o x', 'xargs cat'], 'can name any file'],
    [['xargs cat'], 'its own input'],
    [['echo a b', 'xargs echo'], null],
  ];
  it.each(rows)('%j → %j', (stages, part) => {
    const f = xargsInputFinding(stages.map(w));
    if (part === null) expect(f).toBeNull();
    else expect(f?.what).toContain(part);
  });
});

/** A path- or module-valued option: how the tool is called, its names, and whether its parser takes abbreviations. */
interface ValuedOption {
  readonly cmd: (opt: string) => string;
  readonly long?: string;
  readonly short?: string;
  /** A harmless letter to bundle before the short option. */
  readonly bundle?: string;
  readonly abbrev: boolean;
  /** read: only values outside the workspace must be refused; write/module: protected ones too. */
  readonly kind: 'read' | 'write' | 'module';
}

const OPTIONS: readonly ValuedOption[] = [
  { cmd: (o) => `sort ${o} in.txt`, long: 'output', short: 'o', bundle: 'u', abbrev: true, kind: 'write' },
  { cmd: (o) => `tar -c ${o} src`, long: 'file', short: 'f', bundle: 'z', abbrev: true, kind: 'write' },
  { cmd: (o) => `tar -x -f a.tar ${o}`, long: 'directory', short: 'C', bundle: 'v', abbrev: true, kind: 'write' },
  { cmd: (o) => `cp ${o} a`, long: 'target-directory', short: 't', bundle: 'r', abbrev: true, kind: 'write' },
  { cmd: (o) => `curl ${o} https://x.example`, long: 'output', short: 'o', bundle: 's', abbrev: true, kind: 'write' },
  {
    cmd: (o) => `wget ${o} https://x.example`,
    long: 'output-document',
    short: 'O',
    bundle: 'q',
    abbrev: true,
    kind: 'write',
  },
  { cmd: (o) => `npx vitest run ${o}`, long: 'outputFile', abbrev: false, kind: 'write' },
  { cmd: (o) => `npx vitest run ${o}`, long: 'output-file', abbrev: false, kind: 'write' },
  { cmd: (o) => `npx jest ${o}`, long: 'coverageDirectory', abbrev: false, kind: 'write' },
  { cmd: (o) => `npx playwright test ${o}`, long: 'output', abbrev: false, kind: 'write' },
  { cmd: (o) => `node --test ${o}`, long: 'test-reporter-destination', abbrev: false, kind: 'write' },
  { cmd: (o) => `pytest ${o}`, long: 'basetemp', abbrev: false, kind: 'write' },
  { cmd: (o) => `pytest ${o}`, long: 'log-file', abbrev: false, kind: 'write' },
  { cmd: (o) => `pytest ${o}`, long: 'junitxml', abbrev: false, kind: 'write' },
  { cmd: (o) => `npm test ${o}`, long: 'logs-dir', abbrev: true, kind: 'write' },
  { cmd: (o) => `cargo test ${o}`, long: 'target-dir', abbrev: false, kind: 'write' },
  { cmd: (o) => `npx eslint ${o} src`, long: 'output-file', short: 'o', abbrev: false, kind: 'write' },
  { cmd: (o) => `npx vitest run ${o}`, long: 'reporter', abbrev: false, kind: 'module' },
  { cmd: (o) => `npx vitest run ${o}`, long: 'environment', abbrev: false, kind: 'module' },
  { cmd: (o) => `npx vitest run ${o}`, long: 'config', short: 'c', bundle: 'u', abbrev: false, kind: 'module' },
  { cmd: (o) => `npx jest ${o}`, long: 'setupFiles', abbrev: false, kind: 'module' },
  { cmd: (o) => `npx mocha ${o}`, long: 'require', short: 'r', abbrev: false, kind: 'module' },
  { cmd: (o) => `node ${o} a.js`, long: 'require', short: 'r', abbrev: false, kind: 'module' },
  { cmd: (o) => `node ${o} a.js`, long: 'import', abbrev: false, kind: 'module' },
  { cmd: (o) => `node --test ${o}`, long: 'test-reporter', abbrev: false, kind: 'module' },
  { cmd: (o) => `pytest ${o}`, short: 'p', bundle: 'q', abbrev: false, kind: 'module' },
  { cmd: (o) => `grep ${o} x src`, long: 'file', short: 'f', bundle: 'n', abbrev: true, kind: 'read' },
  { cmd: (o) => `git blame ${o} a.ts`, long: 'contents', abbrev: false, kind: 'read' },
  { cmd: (o) => `tree ${o}`, long: 'gitfile', abbrev: false, kind: 'read' },
  { cmd: (o) => `pytest ${o}`, long: 'rootdir', abbrev: false, kind: 'read' },
  { cmd: (o) => `npm test ${o}`, long: 'prefix', abbrev: true, kind: 'read' },
  { cmd: (o) => `awk ${o} f`, short: 'f', abbrev: false, kind: 'read' },
  { cmd: (o) => `sed ${o} f`, long: 'file', short: 'f', bundle: 'n', abbrev: true, kind: 'read' },
];

const OUTSIDE = ['/etc/x', '../x', 'src/../../x', '/proc/self/environ', '/dev/stdin', '/dev/fd/3'];
const PROTECTED_PATHS = [
  '.git/x',
  '.git',
  '.slmcode/hooks.json',
  'sub/.git/hooks/pre-commit',
  '.GIT/config',
  '.slmcode/scratch',
];

/** Every spelling of `opt` with `value` that the tool's parser reads as that option. */
function spellings(opt: ValuedOption, value: string): string[] {
  const out: string[] = [];
  if (opt.long) {
    const names = [opt.long, ...(opt.abbrev ? [opt.long.slice(0, Math.max(4, opt.long.length - 2))] : [])];
    for (const n of names) out.push(`--${n}=${value}`, `--${n} ${value}`);
  }
  if (opt.short) {
    out.push(`-${opt.short} ${value}`, `-${opt.short}${value}`);
    if (opt.bundle) out.push(`-${opt.bundle}${opt.short} ${value}`, `-${opt.bundle}${opt.short}${value}`);
  }
  return out;
}

describe('option values property', () => {
  it('a value outside the workspace, or (for writes and modules) under .git/ or .slmcode/, is never allowed, however the option is spelled', () => {
    const cases = fc
      .constantFrom(...OPTIONS)
      .chain((opt) =>
        fc
          .tuple(
            fc.constant(opt),
            fc.constantFrom(...(opt.kind === 'read' ? OUTSIDE : [...OUTSIDE, ...PROTECTED_PATHS])),
          )
          .chain(([o, value]) => fc.constantFrom(...spellings(o, value).map((s) => o.cmd(s)))),
      );
    fc.assert(
      fc.property(cases, (cmd) => {
        expect(decideShell(parser, cmd).decision, cmd).not.toBe('allow');
      }),
      { numRuns: 600 },
    );
  });

  it('the same options with an ordinary workspace value are not refused (the property above is not vacuous)', () => {
    const refused = OPTIONS.map((opt) =>
      opt.cmd(spellings(opt, opt.kind === 'module' ? './m.js' : 'out/r.txt')[0]!),
    ).filter((cmd) => decideShell(parser, cmd).decision === 'refuse');
    // sort -o is refused whatever it names: it writes from the shell, and ws_write does the job.
    expect(refused).toEqual(['sort --output=out/r.txt in.txt']);
  });
});
