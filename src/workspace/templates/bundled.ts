/**
 * The templates shipped with the app. Their JSON is generated from real files by
 * scripts/build-templates.ts; importing JSON (rather than import.meta.glob) keeps this module
 * loadable by Vite, by a browser worker and by Node through tsx alike.
 */
import starterJson from './starter.json' with { type: 'json' };
import { asTemplate, type Template } from './template.ts';

/** tiny-utils: a small ES-module library with node:test tests and one deliberate bug. */
export const STARTER_TEMPLATE: Template = asTemplate(starterJson);

/** Every bundled template, the default first. */
export const TEMPLATES: readonly Template[] = [STARTER_TEMPLATE];

/** The bundled template with this id, or undefined (ids come from recorded sessions, so a miss is data). */
export function templateById(id: string): Template | undefined {
  return TEMPLATES.find((t) => t.id === id);
}
