/**
 * sed is free as a stream printer (`sed -n '1,20p' f`, `sed 's/a/b/' f`), never as an editor:
 * -i in any spelling (`-i.bak`, `-ni`, `--in-pl`) edits in place, and a script can write files
 * (`w`, `W`, the `w` flag of `s`), run commands (`e`, the `e` flag of `s`) or read other files
 * (`r`, `R`). The script is parsed command by command — addresses, blocks, labels, `s` with any
 * delimiter — and anything the parser does not recognize is refused rather than guessed.
 */
import { gated, never, q, USE, type Finding, type Verdict } from './decision.ts';
import { findAll, findLong, findShort, operands, scanOptions, shown } from './options.ts';
import { optionPathFinding, pathFinding } from './paths.ts';
import { pathOperandsFinding } from './simple-tools.ts';
import type { Word } from './words.ts';
import { writing } from './writers.ts';

const NO_ARGUMENT = '=dDgGhHnNpPxzF{}';

class SedScript {
  private i = 0;
  constructor(private readonly s: string) {}

  private get c(): string | undefined {
    return this.s[this.i];
  }

  private problem(what: string, use: string = USE.write): Finding {
    return never('sed-script', `sed script ${q(this.s)} ${what}`, use);
  }

  private unreadable(): Finding {
    return this.problem(
      `could not be read completely near ${q(this.s.slice(this.i, this.i + 12))}; ws_shell runs only sed scripts it can check`,
      "Print lines with sed -n '10,20p' FILE, or use ws_read and ws_grep.",
    );
  }

  private skipBlanks(): void {
    while (this.c === ' ' || this.c === '\t') this.i++;
  }

  /**
   * Reads up to an unescaped `delim`; returns false when the script ends first. In a regex, a
   * bracket expression (`[/]`, `[]x]`, `[[:alpha:]]`) may hold the delimiter, as GNU sed allows.
   */
  private skipDelimited(delim: string, regex: boolean): boolean {
    for (; this.i < this.s.length; this.i++) {
      if (this.c === '\\') this.i++;
      else if (regex && this.c === '[') {
        if (!this.skipBracket()) return false;
      } else if (this.c === delim) {
        this.i++;
        return true;
      }
    }
    return false;
  }

  /** From a `[` to its closing `]` (leaves `i` on it); false when it never closes. */
  private skipBracket(): boolean {
    this.i++;
    if (this.c === '^') this.i++;
    if (this.c === ']') this.i++;
    for (; this.i < this.s.length; this.i++) {
      if (this.c === '[' && ':.='.includes(this.s[this.i + 1] ?? '')) {
        const close = this.s.indexOf(`${this.s[this.i + 1]}]`, this.i + 2);
        if (close < 0) return false;
        this.i = close + 1;
      } else if (this.c === ']') return true;
    }
    return false;
  }

  /** The rest of the line (file names, labels, a/i/c text); backslash-newline continues it. */
  private restOfLine(stopAtSemicolon: boolean): string {
    const start = this.i;
    while (this.i < this.s.length && this.c !== '\n' && !(stopAtSemicolon && (this.c === ';' || this.c === '}'))) {
      if (this.c === '\\') this.i++;
      this.i++;
    }
    return this.s.slice(start, this.i).trim();
  }

  /** One address: N, N~M, $, /re/, \cREc (with I/M flags), or addr2 forms +N, ~N. */
  private address(): boolean {
    const c = this.c;
    if (c !== undefined && /[0-9+~]/.test(c)) {
      this.i++;
      while (this.c !== undefined && /[0-9~]/.test(this.c)) this.i++;
    } else if (c === '$') this.i++;
    else if (c === '/' || c === '\\') {
      const delim = c === '/' ? '/' : this.s[this.i + 1];
      this.i += c === '/' ? 1 : 2;
      if (delim === undefined || delim === '\n' || !this.skipDelimited(delim, true)) return false;
      while (this.c === 'I' || this.c === 'M') this.i++;
    }
    return true;
  }

  /** The `s` command's parts and flags (`w FILE` and `e` are refused). */
  private substitute(): Finding | null {
    const delim = this.c;
    if (delim === undefined || delim === '\n' || delim === '\\') return this.unreadable();
    this.i++;
    if (!this.skipDelimited(delim, true) || !this.skipDelimited(delim, false)) return this.unreadable();
    while (this.c !== undefined && /[gpiImM0-9]/.test(this.c)) this.i++;
    if (this.c === 'w' || this.c === 'W') return this.problem(`uses the ${q(this.c)} flag of s, which writes a file`);
    if (this.c === 'e')
      return this.problem('uses the e flag of s, which runs the pattern space as a shell command', USE.oneCommand);
    return null;
  }

  /** Finds the first command that writes, runs or reads outside, or a part it cannot read. */
  check(): Finding | null {
    while (this.i < this.s.length) {
      while (this.c !== undefined && /[\s;]/.test(this.c)) this.i++;
      if (this.c === undefined) break;
      if (this.c === '#') {
        this.restOfLine(false);
        continue;
      }
      if (!this.address()) return this.unreadable();
      this.skipBlanks();
      if (this.c === ',') {
        this.i++;
        this.skipBlanks();
        if (!this.address()) return this.unreadable();
      }
      this.skipBlanks();
      while (this.c === '!') {
        this.i++;
        this.skipBlanks();
      }
      const cmd = this.c;
      this.i++;
      // GNU sed wants a separator after most commands; parsing on without one (BSD accepts `xp`)
      // is safe because every following character is read as a command too.
      const f = this.command(cmd);
      if (f) return f;
    }
    return null;
  }

  private command(cmd: string | undefined): Finding | null {
    if (cmd === undefined) return this.unreadable();
    if (NO_ARGUMENT.includes(cmd)) return null;
    switch (cmd) {
      case 'l':
      case 'L':
      case 'q':
      case 'Q':
        this.skipBlanks();
        while (this.c !== undefined && /[0-9]/.test(this.c)) this.i++;
        return null;
      case ':':
      case 'b':
      case 't':
      case 'T':
      case 'v':
        this.restOfLine(true);
        return null;
      case 'a':
      case 'i':
      case 'c':
        this.restOfLine(false);
        return null;
      case 's':
        return this.substitute();
      case 'y': {
        const delim = this.c;
        if (delim === undefined || delim === '\\' || delim === '\n') return this.unreadable();
        this.i++;
        return this.skipDelimited(delim, false) && this.skipDelimited(delim, false) ? null : this.unreadable();
      }
      case 'w':
      case 'W':
        return this.problem(`uses the ${q(cmd)} command, which writes a file`);
      case 'e':
        return this.problem('uses the e command, which runs a shell command', USE.oneCommand);
      case 'r':
      case 'R': {
        const file = this.restOfLine(false);
        return pathFinding(file) ? this.problem(`reads ${q(file)}, outside the workspace`, USE.jail) : null;
      }
      default:
        return this.problem(
          `uses ${q(cmd)}, which is not a sed command ws_shell knows`,
          "Print lines with sed -n '10,20p' FILE, or use ws_read and ws_grep.",
        );
    }
  }
}

/** Why a sed script writes, runs or reads outside the workspace, or null when it only prints. */
export function sedScriptFinding(script: string): Finding | null {
  return new SedScript(script).check();
}

/** The verdict for `sed ARGS…`. */
export function checkSed(args: readonly Word[]): Verdict {
  const tokens = scanOptions(args, {
    shortValue: 'efl',
    shortOptional: 'i',
    longValue: ['expression', 'file', 'line-length'],
  });
  const inPlace = findShort(tokens, 'i') ?? findLong(tokens, ['in-place']);
  if (inPlace)
    return never(
      'sed-in-place',
      `sed ${q(shown(inPlace))} edits files in place`,
      'Edit files with ws_edit or ws_patch; sed may only print.',
    );
  const file = findShort(tokens, 'f') ?? findLong(tokens, ['file']);
  if (file) {
    const gate = gated(
      'sed-script-file',
      `sed ${q(shown(file))} runs a script file ws_shell cannot check`,
      "Put the script on the command line: sed -n '1,20p' FILE.",
    );
    return (
      optionPathFinding(file) ??
      writing(gate, ['whatever the script file writes (sed w commands; not known before it runs)'])
    );
  }
  const given = findAll(tokens, 'e', ['expression']);
  const ops = operands(tokens);
  const scripts = given.length ? given.map((t) => t.value ?? '') : ops.slice(0, 1).map((o) => o.text);
  if (scripts.length === 0)
    return never('sed-script', 'sed without a script does nothing useful', "Print lines with sed -n '10,20p' FILE.");
  for (const s of scripts) {
    const f = sedScriptFinding(s);
    if (f) return f;
  }
  const files = (given.length ? ops : ops.slice(1)).map((o) => o.word);
  return pathOperandsFinding('sed', files, true) ?? { free: 'prints text only' };
}
