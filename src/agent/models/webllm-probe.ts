/**
 * Which of a WebLLM model's files its host refused, and with what status. WebLLM stores files
 * with Cache.add, whose failure says only "Request failed"; when a download fails that way, the
 * model's files are asked for again, one at a time, so the message can name the file, its URL
 * and the HTTP status (a custom model URL that answers 404 is the common case).
 */

/** One file the host answered with an error status (or did not answer at all). */
export interface FailedFile {
  readonly file: string;
  readonly url: string;
  /** The HTTP status, or null when the request itself failed (offline, CORS). */
  readonly status: number | null;
  readonly statusText: string;
}

/** Where WebLLM reads a model's files from: the model URL's `resolve/main/` (it adds it when missing). */
export function modelFilesBase(modelUrl: string): string {
  const base = modelUrl.endsWith('/') ? modelUrl : `${modelUrl}/`;
  return /resolve\/main\/$/.test(base) ? base : `${base}resolve/main/`;
}

/** The files every model has: its config, the tensor index, and its compiled library (when given). */
function filesOf(modelUrl: string, modelLib: string | undefined): { file: string; url: string }[] {
  const base = modelFilesBase(modelUrl);
  const files = ['mlc-chat-config.json', 'tensor-cache.json'].map((file) => ({ file, url: new URL(file, base).href }));
  if (modelLib) files.push({ file: modelLib.split('/').pop() ?? modelLib, url: modelLib });
  return files;
}

/** The first file the host refuses, in the order WebLLM fetches them; null when all answer. */
export async function firstFailingFile(
  modelUrl: string,
  modelLib: string | undefined,
  fetchFn: typeof fetch = fetch,
): Promise<FailedFile | null> {
  for (const f of filesOf(modelUrl, modelLib)) {
    try {
      const r = await fetchFn(f.url, { method: 'HEAD', cache: 'no-store' });
      if (!r.ok) return { ...f, status: r.status, statusText: r.statusText };
    } catch (e) {
      return { ...f, status: null, statusText: e instanceof Error ? e.message : String(e) };
    }
  }
  return null;
}

/** The sentence naming the refused file, for the error message. */
export function failedFileText(f: FailedFile): string {
  const answer =
    f.status === null
      ? `could not be fetched (${f.statusText})`
      : `answered HTTP ${f.status}${f.statusText ? ` ${f.statusText}` : ''}`;
  return `${f.file} could not be downloaded: ${f.url} ${answer}.`;
}
