/**
 * Property tests draw from one fixed seed, so `npm test` on a commit always tries the same
 * cases and a green commit stays green. `npm run fuzz` sets FC_SEED=random to draw new cases
 * each run (a failure prints its seed and counterexample; make it a fixed row).
 */
import fc from 'fast-check';

const seed = process.env.FC_SEED;
if (seed !== 'random') fc.configureGlobal({ seed: seed === undefined ? 20261201 : Number(seed) });
