/**
 * What the sandbox's bundle of Jest's packages exports (expect-bundle.ts bundles this file):
 * `expect` with Jest's matchers, and jest-mock's mock functions for `jest.fn`/`vi.fn`.
 */
import { ModuleMocker } from 'jest-mock';

export { expect } from 'expect';

const mocker = new ModuleMocker(globalThis);
/** jest.fn / vi.fn */
export const fn = mocker.fn.bind(mocker);
/** jest.spyOn / vi.spyOn */
export const spyOn = mocker.spyOn.bind(mocker);
/** jest.isMockFunction */
export const isMockFunction = mocker.isMockFunction.bind(mocker);
/** jest.clearAllMocks and friends */
export const clearAllMocks = mocker.clearAllMocks.bind(mocker);
export const resetAllMocks = mocker.resetAllMocks.bind(mocker);
export const restoreAllMocks = mocker.restoreAllMocks.bind(mocker);
