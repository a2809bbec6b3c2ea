/** The sed and awk program scanners, one row per command form: null = only prints, else the rule's wording. */
import { describe, expect, it } from 'vitest';
import { awkProgramFinding } from './awk.ts';
import { jqProgramFinding } from './jq.ts';
import { sedScriptFinding } from './sed.ts';

describe('sed scripts', () => {
  const rows: readonly (readonly [string, string | null])[] = [
    ['1,20p', null],
    ['$p', null],
    ['/start/,/end/p', null],
    ['\\,a/b,p', null],
    ['0~2p', null],
    ['/x/,+3d', null],
    ['/a/I!d', null],
    ['s/a/b/g', null],
    ['s|/usr|/opt|2p', null],
    ['s/[/]/x/', null],
    ['s/[[:alpha:]/]/x/g', null],
    ['s/[]/]/x/', null],
    ['s/[/]/x/w out', 'flag of s, which writes a file'],
    ['s/[/x/w out/', 'could not be read completely'],
    ['y/abc/xyz/', null],
    ['1{p;p}', null],
    [':a;N;$!ba;s/\\n/ /g', null],
    ['1a appended text; w not-a-command', null],
    ['xp', null],
    ['# comment w x\np', null],
    ['r notes.txt', null],
    ['w out.txt', 'uses the "w" command'],
    ['1,1w/home/u/.zshenv', 'uses the "w" command'],
    ['/x/W out', 'uses the "W" command'],
    ['s/a/b/w out', 'flag of s, which writes a file'],
    ['s/a/b/gw out', 'flag of s, which writes a file'],
    ['s/a/b/e', 'e flag of s'],
    ['e id', 'e command'],
    ['1e', 'e command'],
    ['r /etc/passwd', 'outside the workspace'],
    ['R ../x', 'outside the workspace'],
    ['p;w x', 'uses the "w" command'],
    [':a;w x', 'uses the "w" command'],
    ['s/a/b', 'could not be read completely'],
    ['/unterminated', 'could not be read completely'],
    ['k', 'not a sed command'],
  ];
  it.each(rows)('%j → %j', (script, expected) => {
    const f = sedScriptFinding(script);
    if (expected === null) expect(f).toBeNull();
    else expect(f?.what).toContain(expected);
  });
});

describe('awk programs', () => {
  const rows: readonly (readonly [string, string | null])[] = [
    ['{print $1}', null],
    ['$3 > 100 {print $1}', null],
    ['{ if ($1 > 5) print ($2 > 3) }', null],
    ['NR==1, NR==5', null],
    ['/a|b/ {n++} END {print n}', null],
    ['{ a = $1 / 2; print a }', null],
    ['$1 ~ /x>y/ { print "a > b" }', null],
    ['{ x = 1 || 0 } # print > "f"', null],
    ['{print > "out.txt"}', 'redirects print output'],
    ['{printf "%s", $1 >> "log"}', 'redirects print output'],
    ['BEGIN { print 1 > 2 }', 'redirects print output'],
    ['{print | "sh"}', 'pipes to or from a command'],
    ['{ "date" | getline d }', 'pipes to or from a command'],
    ['{print |& "cat"}', 'pipes to or from a command'],
    ['BEGIN{system("id")}', 'uses system'],
    ['{ getline line < "/etc/passwd" }', 'uses getline'],
    ['BEGIN { print ENVIRON["TOKEN"] }', 'uses ENVIRON'],
    ['@include "x.awk"', '@ directive'],
    ['{ print "unterminated }', 'unterminated'],
  ];
  it.each(rows)('%j → %j', (program, expected) => {
    const f = awkProgramFinding(program);
    if (expected === null) expect(f).toBeNull();
    else expect(f?.what).toContain(expected);
  });
});

describe('jq programs', () => {
  const rows: readonly (readonly [string, string | null])[] = [
    ['.name', null],
    ['.scripts | keys[]', null],
    ['.env', null],
    ['.[] | select(.name == "env")', null],
    ['"\\(.a) and env" | length', null],
    ['# env\n.a', null],
    ['env', 'uses env'],
    ['$ENV.HOME', 'uses $ENV'],
    ['$ ENV', 'uses $ENV'],
    ['$\tENV.HOME', 'uses $ENV'],
    ['$ # a comment\n ENV', 'uses $ENV'],
    ['. as $x | $x.ENV', null],
    ['$__loc__', null],
    ['"home: \\(env.HOME)"', 'uses env'],
    ['"\\("x" + ("y" | ascii_downcase)) \\($ENV)"', 'uses $ENV'],
    ['import "m" as m; .', 'uses import'],
    ['include "m"; .', 'uses include'],
  ];
  it.each(rows)('%j → %j', (program, expected) => {
    const f = jqProgramFinding(program);
    if (expected === null) expect(f).toBeNull();
    else expect(f?.what).toContain(expected);
  });
});
