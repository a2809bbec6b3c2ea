/** The bundle of Jest's `expect` (and jest-mock) as source text; served by expect-bundle.ts's Vite plugin. */
declare module 'virtual:sandbox-expect' {
  const source: string;
  export default source;
}
