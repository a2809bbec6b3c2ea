/**
 * One 2,000-line file per checked language (JavaScript, Python, Go, JSON), each made of
 * two hundred ten-line units, and an edit of three lines in one unit. The edit's new text
 * carries the run number, so every timed run writes a text the syntax check has not judged
 * yet, as a real edit does (a repeated identical text would be answered from the verdict cache).
 */
import { pyFile, pySpan } from './tree.ts';

export type Lang = 'js' | 'py' | 'go' | 'json';

export interface LargeFile {
  readonly lang: Lang;
  readonly path: string;
  readonly text: string;
  /** Three lines of unit `i`, unique in the file. */
  span(i: number): string[];
  /** What the edit of run `run` puts in their place: still valid code. */
  next(i: number, run: number): string[];
}

const UNITS = 200;

const units = (unit: (i: number) => string): string => Array.from({ length: UNITS }, (_, i) => unit(i)).join('');

function jsUnit(i: number): string {
  return (
    `export function handler${i}(request, context) {\n` +
    `  const value = request.get('field_${i}', ${i});\n` +
    `  if (value === null) {\n` +
    `    return null;\n` +
    `  }\n` +
    `  let total = 0;\n` +
    `  for (const item of context.items) total += item * ${i % 7};\n` +
    `  return total + value;\n` +
    `}\n` +
    `\n`
  );
}

function goUnit(i: number): string {
  return (
    `func Handler${i}(request map[string]int, items []int) int {\n` +
    `\tvalue, ok := request["field_${i}"]\n` +
    `\tif !ok {\n` +
    `\t\treturn -1\n` +
    `\t}\n` +
    `\ttotal := 0\n` +
    `\tfor _, item := range items { total += item * ${i % 7} }\n` +
    `\treturn total + value\n` +
    `}\n` +
    `\n`
  );
}

function jsonUnit(i: number): string {
  return (
    `  {\n` +
    `    "id": ${i},\n` +
    `    "name": "handler_${i}",\n` +
    `    "field": "field_${i}",\n` +
    `    "enabled": true,\n` +
    `    "weight": ${i % 7},\n` +
    `    "tags": ["a", "b"],\n` +
    `    "limit": null,\n` +
    `    "next": ${i + 1}\n` +
    `  }${i === UNITS - 1 ? '' : ','}\n`
  );
}

/** The four files, in the order the bench prints them. */
export const LARGE_FILES: readonly LargeFile[] = [
  {
    lang: 'js',
    path: 'big/large.js',
    text: units(jsUnit),
    span: (i) => [`  const value = request.get('field_${i}', ${i});`, '  if (value === null) {', '    return null;'],
    next: (i, run) => [
      `  const value = request.get('field_${i}', ${i});`,
      '  if (value === null || value < 0) {',
      `    return ${run};`,
    ],
  },
  {
    lang: 'py',
    path: 'big/large.py',
    text: pyFile(UNITS),
    span: pySpan,
    next: (i, run) => [pySpan(i)[0]!, '    if value is None or value < 0:', `        return ${run}`],
  },
  {
    lang: 'go',
    path: 'big/large.go',
    text: `package big\n\n${units(goUnit)}`,
    span: (i) => [`\tvalue, ok := request["field_${i}"]`, '\tif !ok {', '\t\treturn -1'],
    next: (i, run) => [`\tvalue, ok := request["field_${i}"]`, '\tif !ok || value < 0 {', `\t\treturn ${run}`],
  },
  {
    lang: 'json',
    path: 'big/large.json',
    text: `[\n${units(jsonUnit)}]\n`,
    span: (i) => [`    "field": "field_${i}",`, '    "enabled": true,', `    "weight": ${i % 7},`],
    next: (i, run) => [`    "field": "field_${i}",`, '    "enabled": false,', `    "weight": ${run},`],
  },
];
