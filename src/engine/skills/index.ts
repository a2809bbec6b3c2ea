/** Skills: the shipped set and its cards (re-exports only). */
export { skillCards } from './bundled.ts';
