/**
 * find and xargs, the two classic ways to run a second command from a read-only one. find is
 * free without actions (-exec, -execdir, -ok, -okdir, -delete, -fprint*, -fls), checked on the
 * decoded words so `-'exec'` or `-de\lete` cannot hide one, and refusing any option-shaped
 * pattern (`-del*`) that could expand to one. xargs is free only when the command it runs is a
 * read-only tool that no appended argument can turn into a writer; its own options are scanned
 * exactly so that the first word of that command is found.
 */
import { never, q, USE, type Verdict } from './decision.ts';
import { familyOf } from './families.ts';
import { operands, scanOptions } from './options.ts';
import { optionPathFinding, pathFinding } from './paths.ts';
import { checkSimple, injectionSafe, pathOperandsFinding, SIMPLE_TOOLS } from './simple-tools.ts';
import { hasGlob, type Word } from './words.ts';

const ACTIONS: Readonly<Record<string, string>> = {
  '-exec': 'runs a command for every match',
  '-execdir': 'runs a command for every match',
  '-ok': 'runs a command for every match',
  '-okdir': 'runs a command for every match',
  '-delete': 'deletes every match',
  '-fprint': 'writes its results to a file',
  '-fprint0': 'writes its results to a file',
  '-fprintf': 'writes its results to a file',
  '-fls': 'writes its results to a file',
};

/** Predicates whose value names a file find reads. */
const PATH_PREDICATES = new Set(['-newer', '-anewer', '-cnewer', '-samefile', '-files0-from']);

/** The verdict for `find ARGS…`. */
export function checkFind(args: readonly Word[]): Verdict {
  let i = 0;
  // Leading options: -H -L -P, -D debugopts, -Olevel.
  while (i < args.length && /^-(?:[HLP]|O\d*|D)$/.test(args[i]!.text)) i += args[i]!.text === '-D' ? 2 : 1;
  const starts: Word[] = [];
  for (; i < args.length; i++) {
    const t = args[i]!.text;
    if (t.startsWith('-') || ['(', '!', ')', ','].includes(t)) break;
    starts.push(args[i]!);
  }
  const startFinding = pathOperandsFinding('find', starts, true);
  if (startFinding) return startFinding;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const action = ACTIONS[w.text];
    if (action !== undefined) {
      return never('find-action', `find ${q(w.raw)} ${action}`, w.text === '-delete' ? `${USE.delete} ${USE.find}` : USE.find);
    }
    if (w.text.startsWith('-') && hasGlob(w)) {
      return never('glob-option', `find ${q(w.raw)} is a pattern that can expand to an action such as -delete`, 'Write find predicates out in full.');
    }
    if (PATH_PREDICATES.has(w.text) && i + 1 < args.length) {
      const f = pathFinding(args[i + 1]!.text, args[i + 1]!.raw);
      if (f) return f;
    }
  }
  return { free: 'is read-only' };
}

/** The verdict for `xargs OPTIONS… COMMAND ARGS…`. */
export function checkXargs(args: readonly Word[]): Verdict {
  // GNU xargs: -e/-i/-l take an optional attached value, the rest of these a value; options stop at the command.
  const tokens = scanOptions(args, {
    shortValue: 'adEILnPs',
    shortOptional: 'eil',
    longValue: ['arg-file', 'delimiter', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
    stopAtOperand: true,
  });
  for (const t of tokens) {
    if ((t.kind === 'short' && t.name === 'a') || (t.kind === 'long' && t.name.startsWith('arg-file'))) {
      const f = optionPathFinding(t);
      if (f) return f;
    }
  }
  const command = operands(tokens);
  const name = command[0];
  if (name === undefined) return { free: 'prints its input' };
  const tool = SIMPLE_TOOLS[name.text];
  if (tool && injectionSafe(tool) && name.word.plain) return checkSimple(name.text, tool, command.slice(1).map((o) => o.word));
  const family = familyOf(name.text);
  const why = family ? `${family.why}` : 'is not a read-only tool that appended arguments cannot turn into a writer';
  return never('xargs', `xargs runs ${q(name.word.raw)}, which ${why}`, family?.use ?? `xargs may run wc, cat, grep, ls, head and similar read-only tools. ${USE.find}`);
}
