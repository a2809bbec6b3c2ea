/** The builtin eval suite: every task of this folder, in id order. */
import type { EvalTask } from '../task.ts';
import chunkTestOutput from './chunk-test-output.ts';
import classTostring from './class-tostring.ts';
import csvQuoted from './csv-quoted.ts';
import curlyQuotes from './curly-quotes.ts';
import deepMerge from './deep-merge.ts';
import dtsParam from './dts-param.ts';
import emitterOff from './emitter-off.ts';
import fixtureUntouched from './fixture-untouched.ts';
import jsonEngines from './json-engines.ts';
import longTablePaging from './long-table-paging.ts';
import manyFilesGrep from './many-files-grep.ts';
import middleOfLongFile from './middle-of-long-file.ts';
import moveModule from './move-module.ts';
import nestedIndent from './nested-indent.ts';
import newModule from './new-module.ts';
import noisyTest from './noisy-test.ts';
import removeOption from './remove-option.ts';
import renameFunction from './rename-function.ts';
import repeatedSpan from './repeated-span.ts';
import taxTwoFiles from './tax-two-files.ts';
import templateSyntax from './template-syntax.ts';
import testsUntouched from './tests-untouched.ts';
import trailingWhitespace from './trailing-whitespace.ts';
import wholeFileLoses from './whole-file-loses.ts';

export const BUILTIN_TASKS: readonly EvalTask[] = Object.freeze(
  [
    chunkTestOutput,
    classTostring,
    csvQuoted,
    curlyQuotes,
    deepMerge,
    dtsParam,
    emitterOff,
    fixtureUntouched,
    jsonEngines,
    longTablePaging,
    manyFilesGrep,
    middleOfLongFile,
    moveModule,
    nestedIndent,
    newModule,
    noisyTest,
    removeOption,
    renameFunction,
    repeatedSpan,
    taxTwoFiles,
    templateSyntax,
    testsUntouched,
    trailingWhitespace,
    wholeFileLoses,
  ].sort((a, b) => (a.id < b.id ? -1 : 1)),
);
