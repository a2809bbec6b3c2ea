/**
 * The Node host's tree-sitter wasm source, for tests. Engine tests reach host code through
 * tests/support (as file-tools.ts reaches the memory workspace), so src/engine/ itself keeps
 * importing nothing else of src/.
 */
export { useNodeWasm } from '../../src/platform/node-wasm.ts';
