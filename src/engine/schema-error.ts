/**
 * Turns a zod validation failure into a message a small model can act on: which argument is
 * wrong, what was expected, and the call to retry with.
 */
import { z } from 'zod';
import { describeValue, typeName, type ArgType } from './arg-types.ts';

export function schemaErrorText(
  tool: string,
  error: z.ZodError,
  given: Record<string, unknown>,
  known: readonly string[],
  example: string,
  types: Readonly<Record<string, ArgType>> = {},
): string {
  const lines = error.issues.map((issue) => {
    const arg = issue.path.length ? issue.path.join('.') : '(arguments)';
    const top = issue.path.length === 1 ? String(issue.path[0]) : null;
    if (issue.code === 'invalid_type' && top !== null) {
      if (!Object.hasOwn(given, top) || given[top] === undefined) return `- ${arg}: missing (required)`;
      const want = types[top];
      return `- ${arg}: expected ${want ? typeName(want) : issue.expected}, but got ${describeValue(given[top])}`;
    }
    if (issue.code === 'unrecognized_keys') return `- unknown argument(s): ${issue.keys.join(', ')}`;
    return `- ${arg}: ${issue.message}`;
  });
  const unknown = Object.keys(given).filter((k) => !known.includes(k));
  if (unknown.length && !lines.some((l) => l.startsWith('- unknown'))) {
    lines.push(`- unknown argument(s) ignored: ${unknown.join(', ')}`);
  }
  return (
    `${tool} was not run — its arguments do not match the schema:\n${lines.join('\n')}\n` +
    `Accepted arguments: ${known.join(', ')}. Retry with the arguments fixed, e.g. ${example}`
  );
}
