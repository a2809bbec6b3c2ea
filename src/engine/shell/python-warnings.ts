/**
 * Python's warning filters (`python -W`, `pytest -W`/`--pythonwarnings`) are
 * `action:message:category:module:lineno`, and a category written `pkg.Name` makes Python import
 * `pkg` to find the class — a module load named in an option's value. A built-in category
 * (`DeprecationWarning`) loads nothing.
 */
import { gated, q, type Finding } from './decision.ts';
import { writing } from './writers.ts';

/** Gated when a filter names its category through a module; null for built-in categories. */
export function warningFilterFinding(tool: string, option: string, filter: string): Finding | null {
  const category = filter.split(':')[2] ?? '';
  if (!category.includes('.')) return null;
  const module = category.slice(0, category.lastIndexOf('.'));
  return writing(
    gated(
      'module-option',
      `${tool} ${q(option)} imports the module ${q(module)} to find the warning category ${q(category)}, and importing it runs its code`,
      'Use a built-in warning category (DeprecationWarning, UserWarning …), or a person approves it.',
    ),
    [`whatever the module ${module} does when it is imported (not known before it runs)`],
  );
}
