/**
 * acorn with scopes that remember their names in Sets.
 *
 * acorn (8.x) keeps the names declared in each scope in arrays and looks every new
 * declaration up with `indexOf`, so a scope with n `let`/`const`/`class`/function
 * declarations costs n²/2 comparisons: a 12 MB file of top-level declarations took minutes.
 * This plugin replaces exactly the three methods that read a scope's names (`enterScope`,
 * `declareName`, `checkLocalExport`) with the same rules over Sets, so each lookup is
 * constant time and a parse is linear in the number of declarations. The rules, their order
 * and the error texts are acorn's own (acorn.mjs, `pp$3.declareName`); acorn-scopes.test.ts
 * holds them to acorn's verdicts.
 */
import { Parser } from 'acorn';

// acorn's scope and binding flags (acorn.mjs); they are not exported.
const SCOPE_TOP = 1;
const SCOPE_FUNCTION = 2;
const SCOPE_SIMPLE_CATCH = 32;
const SCOPE_CLASS_STATIC_BLOCK = 256;
const SCOPE_VAR = SCOPE_TOP | SCOPE_FUNCTION | SCOPE_CLASS_STATIC_BLOCK;
const BIND_LEXICAL = 2;
const BIND_FUNCTION = 3;
const BIND_SIMPLE_CATCH = 4;

class SetScope {
  readonly var = new Set<string>();
  readonly lexical = new Set<string>();
  readonly functions = new Set<string>();
  /** The first lexical name: a simple catch scope's parameter, which a `var` may redeclare. */
  firstLexical: string | undefined;
  constructor(readonly flags: number) {}

  declareLexical(name: string): void {
    if (this.lexical.size === 0) this.firstLexical = name;
    this.lexical.add(name);
  }
}

/** The members of acorn's parser this plugin reads or replaces (its typings declare none of them). */
interface ParserInternals {
  scopeStack: SetScope[];
  inModule: boolean;
  undefinedExports: Record<string, unknown>;
  readonly treatFunctionsAsVar: boolean;
  treatFunctionsAsVarInScope(scope: SetScope): boolean;
  currentScope(): SetScope;
  raiseRecoverable(pos: number, message: string): void;
}

function enterScope(this: ParserInternals, flags: number): void {
  this.scopeStack.push(new SetScope(flags));
}

function declareName(this: ParserInternals, name: string, bindingType: number, pos: number): void {
  let redeclared = false;
  if (bindingType === BIND_LEXICAL) {
    const scope = this.currentScope();
    redeclared = scope.lexical.has(name) || scope.functions.has(name) || scope.var.has(name);
    scope.declareLexical(name);
    if (this.inModule && scope.flags & SCOPE_TOP) delete this.undefinedExports[name];
  } else if (bindingType === BIND_SIMPLE_CATCH) {
    this.currentScope().declareLexical(name);
  } else if (bindingType === BIND_FUNCTION) {
    const scope = this.currentScope();
    redeclared = this.treatFunctionsAsVar ? scope.lexical.has(name) : scope.lexical.has(name) || scope.var.has(name);
    scope.functions.add(name);
  } else {
    for (let i = this.scopeStack.length - 1; i >= 0; --i) {
      const scope = this.scopeStack[i]!;
      const catchParam = (scope.flags & SCOPE_SIMPLE_CATCH) !== 0 && scope.firstLexical === name;
      if (
        (scope.lexical.has(name) && !catchParam) ||
        (!this.treatFunctionsAsVarInScope(scope) && scope.functions.has(name))
      ) {
        redeclared = true;
        break;
      }
      scope.var.add(name);
      if (this.inModule && scope.flags & SCOPE_TOP) delete this.undefinedExports[name];
      if (scope.flags & SCOPE_VAR) break;
    }
  }
  if (redeclared) this.raiseRecoverable(pos, `Identifier '${name}' has already been declared`);
}

function checkLocalExport(this: ParserInternals, id: { name: string }): void {
  const top = this.scopeStack[0]!;
  if (!top.lexical.has(id.name) && !top.var.has(id.name)) this.undefinedExports[id.name] = id;
}

/** The acorn plugin: scope lookups in constant time. */
export function setScopes(Base: typeof Parser): typeof Parser {
  const Extended = class extends Base {};
  Object.assign(Extended.prototype, { enterScope, declareName, checkLocalExport });
  return Extended;
}

/** acorn's Parser with Set-backed scopes; `LinearScopeParser.parse(text, options)` parses as `acorn.parse` does. */
export const LinearScopeParser: typeof Parser = Parser.extend(setScopes);
