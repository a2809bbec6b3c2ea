/** Bundled starting workspaces (re-exports only). */
export { asTemplate, hashTemplateFiles, seedTemplate, type Template } from './template.ts';
export { STARTER_TEMPLATE, TEMPLATES, templateById } from './bundled.ts';
