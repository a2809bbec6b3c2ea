#!/usr/bin/env node
/**
 * The `slm` command of a checkout (`npx slm …`, package.json `bin`): loads tsx's module hooks in
 * this process and runs src/cli/main.ts, which reads the arguments and sets the exit code itself.
 */
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
