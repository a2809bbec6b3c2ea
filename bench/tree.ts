/**
 * The generated project the latency section runs on: 2,000 small source files in 100
 * directories (written straight to disk, not through the engine), a 2,000-line Python file,
 * and a small Python file for the ws_edit rung cases. Deterministic, so runs compare.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const TREE = Object.freeze({
  files: 2000,
  /**
   * The ws_grep searches, each beside `grep -rnE` (`-i` where case is ignored): a string once in
   * every 50th file (40 hits), a regex whose required literal is in some files only, one whose
   * literal is in every Python file (so the regex runs on each), and a case-insensitive one,
   * which has no literal to rule files out with; then three with no long required literal
   * (issue 26): words in some Markdown files, a numbered name beside a literal that is in
   * every JS/TS file, and notes in some JS/TS files.
   */
  grepSearches: [
    { pattern: 'computeChecksum\\(' },
    { pattern: 'func Run1[0-9]{2}\\(' },
    { pattern: 'handler_(12|34)[0-9]\\b' },
    { pattern: 'MODULE 7[0-9]\\b', case_insensitive: true },
    // Patterns with no long literal every match contains: an alternation in a group, a class
    // between two literals whose longer one is in every JS/TS file, and a bare alternation.
    { pattern: '(alpha|omega)' },
    { pattern: 'render[0-9]+ = parse' },
    { pattern: 'TODO|FIXME' },
  ],
  /** One test file per directory: 100 hits, under ws_glob's cap of 200. */
  globPattern: '**/*.test.ts',
  findName: '*.test.ts',
  /** A small file to read. */
  readPath: 'pkg07/mod3/file5.ts',
  /** The ws_edit targets: Python files of ten-line functions (see pyFunction). */
  largeFile: { path: 'big/large.py', functions: 200, size: '2,000-line .py' },
  rungFile: { path: 'edit/rungs.py', functions: 6, size: '60-line .py' },
});

export type PyFileSpec = (typeof TREE)['largeFile'];

const EXTS = ['ts', 'js', 'py', 'go', 'md'] as const;

function sourceFile(n: number, ext: (typeof EXTS)[number]): string {
  const marker = n % 50 === 5 ? `  const sum = computeChecksum(items);\n` : '';
  const note =
    n % 40 === 6
      ? `  // TODO: cache the total of case ${n}\n`
      : n % 40 === 26
        ? `  // FIXME: case ${n} overflows\n`
        : '';
  const view = n % 16 === 1 ? `render${n} = parse` : 'view = parse';
  switch (ext) {
    case 'py':
      return Array.from({ length: 4 }, (_, i) => pyFunction(n * 4 + i)).join('');
    case 'go':
      return `package mod\n\nimport "fmt"\n\n// Run${n} prints its item.\nfunc Run${n}(items []int) int {\n\ttotal := 0\n\tfor _, x := range items {\n\t\ttotal += x * ${n % 9}\n\t}\n\tfmt.Println(total)\n\treturn total\n}\n`;
    case 'md':
      return `# Module ${n}\n\nThis module handles case ${n}${n % 10 === 4 ? ` (${n % 20 === 4 ? 'alpha' : 'omega'} release)` : ''}.\n\n- first item\n- second item\n\n\`\`\`js\nrun${n}();\n\`\`\`\n`;
    default:
      return (
        `// Module ${n}: helpers for case ${n}.\n` +
        `export function run${n}(items) {\n${marker}${note}  const ${view}(items);\n  let total = 0;\n  for (const x of items) {\n    total += x * ${n % 9};\n  }\n  return total;\n}\n\n` +
        `export function label${n}(name) {\n  return \`case ${n}: \${name}\`;\n}\n`
      );
  }
}

/** Ten lines, the last blank: a function the ws_edit cases can target by its number. */
export function pyFunction(i: number): string {
  return (
    `def handler_${i}(request, context):\n` +
    `    """Handle request kind ${i}."""\n` +
    `    value = request.get("field_${i}", ${i})\n` +
    `    if value is None:\n` +
    `        return None\n` +
    `    total = 0\n` +
    `    for item in context.items:\n` +
    `        total += item * ${i % 7}\n` +
    `    return total + value\n` +
    `\n`
  );
}

/** Lines 3–5 of pyFunction(i): the span the ws_edit cases replace. */
export function pySpan(i: number): string[] {
  return [`    value = request.get("field_${i}", ${i})`, `    if value is None:`, `        return None`];
}

export function pyFile(functions: number): string {
  return Array.from({ length: functions }, (_, i) => pyFunction(i)).join('');
}

/** Writes the tree under `dir` (which must exist), one directory of 20 files at a time to keep open files few. */
export async function generateTree(dir: string): Promise<void> {
  for (let first = 0; first < TREE.files; first += 20) {
    const d = join(
      dir,
      `pkg${String(Math.floor(first / 100)).padStart(2, '0')}`,
      `mod${Math.floor((first % 100) / 20)}`,
    );
    await mkdir(d, { recursive: true });
    await Promise.all(
      Array.from({ length: 20 }, (_, k) => {
        const ext = k === 3 ? 'ts' : EXTS[k % EXTS.length]!;
        return writeFile(join(d, k === 3 ? `file${k}.test.ts` : `file${k}.${ext}`), sourceFile(first + k, ext));
      }),
    );
  }
  for (const { path, functions } of [TREE.largeFile, TREE.rungFile]) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), pyFile(functions));
  }
}
