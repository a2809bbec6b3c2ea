/**
 * The module graph the JavaScript sandbox runs: starting from the entry files, every workspace
 * file they import (ES `import`/`export … from`/literal `import()`) or `require` (literal
 * CommonJS requires), read from the in-memory files and parsed here, on the trusted side, with
 * acorn. Each module records where its specifiers sit, so the sandbox only splices in the URLs
 * it creates; the sandbox itself never parses or resolves anything. A specifier that cannot be
 * served (a package, a built-in the sandbox lacks, a file outside the workspace) becomes a
 * module that throws Node's own error when it is loaded — as Node fails at that point too.
 * acorn is loaded when the first graph is collected, not with the workspace; the Jest-style
 * runner's shims when a job runs it or a module imports `@jest/globals` or `vitest`.
 *
 * Relative specifiers resolve as bundlers (and Jest) resolve them: the path as written, then
 * with `.js`, `.mjs`, `.cjs`, `.json` added, then the directory's `index.js` — for `import` as
 * for `require`, since projects written for Jest or a bundler import `./x` without an extension.
 */
import type { InMemoryFs } from 'just-bash';
import { BUNDLER_CANDIDATES, resolveSpecifier } from './specifiers.ts';
import { JEST_ID, loadJestShims, lookupBuiltin, PROVIDED_BUILTINS, SHIM_SOURCES } from './node-shims/index.ts';

export type ModuleKind = 'esm' | 'cjs' | 'json' | 'error';

/** Where a specifier literal sits in the source (quotes included) and which module it names. */
export interface ModuleDep {
  readonly start: number;
  readonly end: number;
  readonly target: string;
  /** `import()`: a failure rejects that call, where a static import fails the importer before it runs. */
  readonly dynamic: boolean;
}

export interface SandboxModule {
  /** The absolute path in the in-memory filesystem, or a `node:` id for a shim. */
  readonly id: string;
  readonly kind: ModuleKind;
  readonly source: string;
  /** ES specifiers to replace with the URLs of their targets. */
  readonly deps: readonly ModuleDep[];
  /** CommonJS: literal `require(spec)` → target id. */
  readonly requires: Readonly<Record<string, string>>;
  /** CommonJS: export names found statically, offered as named exports to ES importers. */
  readonly names: readonly string[];
  /** For kind 'error': what loading it throws. */
  readonly error?: { readonly message: string; readonly code: string };
}

/** A graph larger than this is refused, so a stray huge tree cannot flood the sandbox. */
export const GRAPH_LIMITS = Object.freeze({ maxModules: 2000, maxBytes: 32 * 1024 * 1024 });

interface AstNode {
  readonly type: string;
  readonly start: number;
  readonly end: number;
  readonly [key: string]: unknown;
}

function isNode(v: unknown): v is AstNode {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';
}

/** Every node of the tree, iteratively (generated files nest deeper than the stack allows). */
function* nodes(root: AstNode): Generator<AstNode> {
  const stack: AstNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    yield n;
    for (const v of Object.values(n)) {
      if (Array.isArray(v)) for (const c of v) if (isNode(c)) stack.push(c);
      if (isNode(v)) stack.push(v);
    }
  }
}

type Parse = typeof import('acorn').parse;

function tryParse(parse: Parse, source: string, sourceType: 'module' | 'commonjs'): AstNode | null {
  try {
    return parse(source, { ecmaVersion: 'latest', sourceType, allowHashBang: true }) as unknown as AstNode;
  } catch {
    return null;
  }
}

/** The string a specifier node holds: a string literal, or a template without expressions. */
function literalOf(n: unknown): string | null {
  if (!isNode(n)) return null;
  if (n.type === 'Literal' && typeof n.value === 'string') return n.value;
  if (n.type === 'TemplateLiteral' && (n.expressions as unknown[]).length === 0) {
    const q = (n.quasis as { value: { cooked: string | null } }[])[0];
    return q?.value.cooked ?? null;
  }
  return null;
}

interface Found {
  readonly spec: string;
  readonly start: number;
  readonly end: number;
  readonly dynamic: boolean;
}

function esmSpecifiers(ast: AstNode): Found[] {
  const out: Found[] = [];
  for (const n of nodes(ast)) {
    const src =
      n.type === 'ImportDeclaration' ||
      n.type === 'ExportAllDeclaration' ||
      n.type === 'ExportNamedDeclaration' ||
      n.type === 'ImportExpression'
        ? n.source
        : null;
    const spec = literalOf(src);
    if (spec !== null && isNode(src))
      out.push({ spec, start: src.start, end: src.end, dynamic: n.type === 'ImportExpression' });
  }
  return out.sort((a, b) => a.start - b.start);
}

function hasModuleSyntax(ast: AstNode): boolean {
  return (ast.body as AstNode[]).some((n) => /^(?:Import|Export(?:Named|Default|All))Declaration$/.test(n.type));
}

function requireCalls(ast: AstNode): string[] {
  const out: string[] = [];
  for (const n of nodes(ast)) {
    if (n.type !== 'CallExpression') continue;
    const callee = n.callee as AstNode;
    const args = n.arguments as unknown[];
    const spec = args.length === 1 ? literalOf(args[0]) : null;
    if (callee.type === 'Identifier' && callee.name === 'require' && spec !== null) out.push(spec);
  }
  return out;
}

function memberName(n: AstNode): string | null {
  if (n.type !== 'MemberExpression' || n.computed) return null;
  const p = n.property as AstNode;
  return p.type === 'Identifier' ? (p.name as string) : null;
}

/** `exports.x =`, `module.exports.x =` and the keys of `module.exports = { … }`. */
function exportNames(ast: AstNode): string[] {
  const names = new Set<string>();
  const isModuleExports = (n: AstNode) =>
    memberName(n) === 'exports' &&
    (n.object as AstNode).type === 'Identifier' &&
    (n.object as AstNode).name === 'module';
  for (const n of nodes(ast)) {
    if (n.type !== 'AssignmentExpression') continue;
    const left = n.left as AstNode;
    const name = memberName(left);
    const obj = left.object as AstNode | undefined;
    if (name && obj && ((obj.type === 'Identifier' && obj.name === 'exports') || isModuleExports(obj))) names.add(name);
    const right = n.right as AstNode;
    if (isModuleExports(left) && right.type === 'ObjectExpression') {
      for (const p of right.properties as AstNode[]) {
        const key = p.key as AstNode | undefined;
        if (p.type === 'Property' && !p.computed && key?.type === 'Identifier') names.add(key.name as string);
      }
    }
  }
  names.delete('default');
  return [...names].filter((n) => /^[A-Za-z_$][\w$]*$/.test(n));
}

function dirOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/')) || '/';
}

/** Reads the module graph from `fs` for the given absolute entry paths. */
export class ModuleGraph {
  readonly modules = new Map<string, SandboxModule>();
  private readonly packageTypes = new Map<string, string | null>();
  private bytes = 0;
  private parse: Parse = () => {
    throw new Error('ModuleGraph: collect() loads acorn before anything is parsed');
  };

  constructor(
    private readonly fs: InMemoryFs,
    private readonly root: string,
  ) {}

  /**
   * Adds the entries, everything they load, and every shim (with `jest`, the Jest-style runner's
   * too); the result is plain, cloneable data.
   */
  async collect(entries: readonly string[], opts: { jest?: boolean } = {}): Promise<Record<string, SandboxModule>> {
    this.parse = (await import('acorn')).parse;
    for (const [id, source] of Object.entries(SHIM_SOURCES)) await this.addEsm(id, source, '/');
    if (opts.jest) await this.addJestShims();
    const queue = [...entries];
    while (queue.length) {
      const id = queue.shift()!;
      if (this.modules.has(id)) continue;
      if (this.modules.size >= GRAPH_LIMITS.maxModules || this.bytes > GRAPH_LIMITS.maxBytes) {
        this.modules.set(
          id,
          errorModule(
            id,
            `the program loads more than ${GRAPH_LIMITS.maxModules} modules or ${GRAPH_LIMITS.maxBytes} bytes, more than the offline sandbox takes`,
            'ERR_SANDBOX_LIMIT',
          ),
        );
        continue;
      }
      queue.push(...(await this.load(id)));
    }
    return Object.fromEntries(this.modules);
  }

  /** The Jest-style runner and the bundle of `expect`, once per graph. */
  private async addJestShims(): Promise<void> {
    if (this.modules.has(JEST_ID)) return;
    for (const [id, source] of Object.entries(await loadJestShims())) await this.addEsm(id, source, '/');
  }

  private async load(id: string): Promise<string[]> {
    const source = await this.fs.readFile(id, 'utf8');
    this.bytes += source.length;
    const kind = await this.kindOf(id, source);
    if (kind === 'json') {
      try {
        JSON.parse(source);
        this.modules.set(id, { id, kind, source, deps: [], requires: {}, names: [] });
      } catch (e) {
        this.modules.set(id, errorModule(id, `${id}: ${(e as Error).message}`, 'ERR_INVALID_JSON'));
      }
      return [];
    }
    if (kind === 'cjs') return this.addCjs(id, source);
    return this.addEsm(id, source, dirOf(id));
  }

  private async addEsm(id: string, source: string, dir: string): Promise<string[]> {
    const ast = tryParse(this.parse, source, 'module');
    // A file that does not parse is passed on as it is: loading it gives the engine's own SyntaxError.
    const found = ast ? esmSpecifiers(ast) : [];
    const deps: ModuleDep[] = [];
    const next: string[] = [];
    for (const f of found) {
      const target = await this.target(f.spec, dir, id, 'esm');
      deps.push({ start: f.start, end: f.end, target, dynamic: f.dynamic });
      next.push(target);
    }
    this.modules.set(id, { id, kind: 'esm', source, deps, requires: {}, names: [] });
    return next;
  }

  private async addCjs(id: string, source: string): Promise<string[]> {
    const ast = tryParse(this.parse, source, 'commonjs');
    const requires: Record<string, string> = {};
    for (const spec of ast ? requireCalls(ast) : []) requires[spec] = await this.target(spec, dirOf(id), id, 'cjs');
    this.modules.set(id, { id, kind: 'cjs', source, deps: [], requires, names: ast ? exportNames(ast) : [] });
    return Object.values(requires);
  }

  /** The module id a specifier names; unservable ones get an error module of their own. */
  private async target(spec: string, dir: string, importer: string, style: 'esm' | 'cjs'): Promise<string> {
    const builtin = lookupBuiltin(spec);
    if (builtin?.kind === 'shim' && builtin.id === JEST_ID) await this.addJestShims();
    if (builtin?.kind === 'shim') return builtin.id;
    const fail = (message: string, code: string): string => {
      const errId = `error:${importer}:${spec}`;
      this.modules.set(errId, errorModule(errId, message, code));
      return errId;
    };
    if (builtin?.kind === 'unavailable') {
      return fail(
        `${builtin.name} is not available in the offline sandbox (it provides ${PROVIDED_BUILTINS}); run the program on the Node backend for the rest of Node's API`,
        'ERR_UNKNOWN_BUILTIN_MODULE',
      );
    }
    if (!spec.startsWith('./') && !spec.startsWith('../') && !spec.startsWith('/')) {
      const what = /^[a-z][a-z0-9+.-]*:/i.test(spec) ? `the URL '${spec}'` : `package '${spec}'`;
      return fail(
        `Cannot find ${what} imported from ${importer}: the offline sandbox loads only the workspace's own files and ${PROVIDED_BUILTINS} (no node_modules, no network)`,
        style === 'esm' ? 'ERR_MODULE_NOT_FOUND' : 'MODULE_NOT_FOUND',
      );
    }
    const abs = resolveSpecifier(dir, spec);
    if (abs !== this.root && !abs.startsWith(`${this.root}/`)) {
      return fail(
        `Cannot load '${spec}' from ${importer}: it resolves outside the workspace (${abs})`,
        style === 'esm' ? 'ERR_MODULE_NOT_FOUND' : 'MODULE_NOT_FOUND',
      );
    }
    return this.pending(abs, importer, style, fail);
  }

  /** Resolves a workspace path as a bundler would; the file is read later. */
  private async pending(
    abs: string,
    importer: string,
    style: 'esm' | 'cjs',
    fail: (m: string, c: string) => string,
  ): Promise<string> {
    for (const c of BUNDLER_CANDIDATES.map((suffix) => `${abs}${suffix}`)) if ((await this.stat(c))?.isFile) return c;
    return style === 'cjs'
      ? fail(`Cannot find module '${abs}' required from ${importer}`, 'MODULE_NOT_FOUND')
      : fail(
          `Cannot find module '${abs}' imported from ${importer} (tried ${BUNDLER_CANDIDATES.map((c) => `'${abs}${c}'`).join(', ')})`,
          'ERR_MODULE_NOT_FOUND',
        );
  }

  /** stat that follows links, or null when nothing is there. */
  private async stat(path: string): Promise<{ isFile: boolean; isDirectory: boolean } | null> {
    try {
      return await this.fs.stat(path);
    } catch {
      return null;
    }
  }

  private async kindOf(path: string, source: string): Promise<ModuleKind> {
    if (path.endsWith('.mjs')) return 'esm';
    if (path.endsWith('.cjs')) return 'cjs';
    if (path.endsWith('.json')) return 'json';
    const type = await this.packageType(dirOf(path));
    if (type === 'module') return 'esm';
    if (type === 'commonjs') return 'cjs';
    // No "type": Node 22 reads ES syntax as a module; a file without it is CommonJS.
    const ast = tryParse(this.parse, source, 'module');
    return ast && hasModuleSyntax(ast) ? 'esm' : 'cjs';
  }

  /** The "type" of the nearest package.json at or above `dir`, within the workspace. */
  private async packageType(dir: string): Promise<string | null> {
    if (this.packageTypes.has(dir)) return this.packageTypes.get(dir)!;
    let type: string | null = null;
    const file = `${dir === '/' ? '' : dir}/package.json`;
    if ((await this.stat(file))?.isFile) {
      try {
        const t = (JSON.parse(await this.fs.readFile(file, 'utf8')) as { type?: unknown }).type;
        // A package.json without "type" leaves the file's own syntax to decide, as in Node 22 (and 20.19).
        type = typeof t === 'string' ? t : null;
      } catch {
        type = null;
      }
    } else if (dir !== this.root && dir.startsWith(`${this.root}/`)) {
      type = await this.packageType(dirOf(dir));
    }
    this.packageTypes.set(dir, type);
    return type;
  }
}

function errorModule(id: string, message: string, code: string): SandboxModule {
  return { id, kind: 'error', source: '', deps: [], requires: {}, names: [], error: { message, code } };
}
