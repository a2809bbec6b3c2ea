/** The loop's defaults, in a file of their own so the start screen can offer them without loading the loop. */
export const LOOP_DEFAULTS = Object.freeze({
  maxSteps: 25,
  seed: 0,
  temperature: 0,
  contextTokens: 4096,
  outputTokens: 512,
  stallSteps: 6,
  maxParseFailures: 4,
});
