/**
 * The one way into the CodeMirror chunk: imported on first use (the inspector's diff or file
 * view), once, and shared. A failed load is retried on the next use rather than cached.
 */
export type CodeMirrorModule = typeof import('./codemirror.ts');

let loading: Promise<CodeMirrorModule> | null = null;

export function loadCodeMirror(): Promise<CodeMirrorModule> {
  loading ??= import('./codemirror.ts').catch((e: unknown) => {
    loading = null;
    throw e;
  });
  return loading;
}
