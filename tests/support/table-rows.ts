/**
 * The commands of a table test read from its source: every array literal whose first element is
 * a string literal and whose second is one of `decisions` (`['ls -la', 'allow', …]`). Reading the
 * source keeps the table where its rule is tested, and lets another test run its rows too.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';

export function tableCommands(file: string, decisions: readonly string[]): string[] {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  const isText = (n: ts.Node | undefined): n is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral =>
    n !== undefined && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n));
  const visit = (n: ts.Node): void => {
    if (ts.isArrayLiteralExpression(n)) {
      const [cmd, decision] = n.elements;
      if (isText(cmd) && isText(decision) && decisions.includes(decision.text)) out.push(cmd.text);
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}
