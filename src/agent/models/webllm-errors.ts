/**
 * WebLLM's errors in plain words. Each rule names what failed, why, and what to do next (and,
 * where a person may worry, that nothing was lost). Errors are matched by name and message:
 * WebLLM does not export its error classes, and the browser's own errors (a fetch that could
 * not reach the model host, a full storage quota) reach us as TypeError or DOMException.
 */
import { ModelError, type ModelErrorCode } from '../model.ts';
import { catalogModel, f32Build } from './catalog.ts';
import { contextError } from './context-errors.ts';

/** What a rule knows about the failed model. */
interface Failed {
  readonly name: string;
  readonly message: string;
  /** The catalog label, else the id. */
  readonly label: string;
  readonly modelId: string;
  /** Where the weights and the model library come from, e.g. "huggingface.co". */
  readonly hosts: readonly string[];
  /** For an error status: which file the host refused and how it answered, when that was found out. */
  readonly refused?: string;
}

interface Rule {
  /** For the table and the tests: which error this rule is about. */
  readonly about: string;
  readonly code: ModelErrorCode;
  matches(name: string, message: string): boolean;
  explain(f: Failed): string;
}

const OTHER_MODELS = 'pick the Scripted model (works offline) or an OpenAI-compatible endpoint (Ollama, LM Studio)';
const NOTHING_LOST =
  'Nothing was lost: your files are as they were, and any weights already downloaded stay cached for the next try.';

/** A fetch that never got an answer, as Chromium, Firefox and Safari word it. */
const UNREACHABLE =
  /^Failed to fetch$|NetworkError when attempting to fetch|^Load failed$|net::ERR_(INTERNET_DISCONNECTED|NAME_NOT_RESOLVED|CONNECTION_\w+|ADDRESS_UNREACHABLE|TIMED_OUT)/;
/** The host answered, but with an error status: Cache.add says only "Request failed"; WebLLM's other caches give the status. */
const HOST_ERROR = /on 'Cache': Request failed|received status \d{3}/;

/** The browser does not say which request failed, so name every host the files come from. */
function fromHosts(hosts: readonly string[]): string {
  return hosts.length ? ` (the files come from ${hosts.join(' and ')})` : '';
}

/** First match wins: the specific WebGPU errors come before the broader feature and network rules. */
export const WEBLLM_ERROR_RULES: readonly Rule[] = [
  {
    about: 'no WebGPU (WebGPUNotAvailableError, WebGPUNotFoundError)',
    code: 'gpu',
    matches: (name) => name === 'WebGPUNotAvailableError' || name === 'WebGPUNotFoundError',
    explain: () =>
      `This browser has no WebGPU, which running a model in the page needs. Use a recent desktop Chrome or Edge, or ${OTHER_MODELS}.`,
  },
  {
    about: 'no adapter ("Unable to find a compatible GPU")',
    code: 'gpu',
    matches: (_, message) => /Unable to find a compatible GPU/i.test(message),
    explain: () =>
      `WebGPU found no compatible GPU (no adapter). Check chrome://gpu and the GPU driver, or ${OTHER_MODELS}.`,
  },
  {
    about: 'no shader-f16 (ShaderF16SupportError)',
    code: 'gpu',
    matches: (name, message) => name === 'ShaderF16SupportError' || /shader-f16/i.test(message),
    explain: (f) => {
      const f32 = f32Build(f.modelId);
      return `This GPU or browser lacks shader-f16, which ${f.label} (a q4f16 build) needs. Pick ${f32 ? f32.label : 'a q4f32 build of the model'} instead, or ${OTHER_MODELS}.`;
    },
  },
  {
    about: 'another missing WebGPU feature (FeatureSupportError)',
    code: 'gpu',
    matches: (name) => name === 'FeatureSupportError',
    explain: (f) =>
      `${f.label} needs a WebGPU feature this browser lacks (${f.message}). Try a recent Chrome or Edge with an up-to-date driver, or ${OTHER_MODELS}.`,
  },
  {
    about: 'adapter limits too small ("Cannot initialize runtime because of requested …")',
    code: 'gpu',
    matches: (_, message) => /Cannot initialize runtime because of requested/.test(message),
    explain: (f) =>
      `This GPU's WebGPU limits are too small for WebLLM (${f.message.trim()}). Try a recent Chrome or Edge with an up-to-date driver, or ${OTHER_MODELS}.`,
  },
  {
    about: 'device lost, out of memory (DeviceLostError)',
    code: 'gpu',
    matches: (name, message) =>
      name === 'DeviceLostError' || /device (was )?lost|out of memory/i.test(message) || /\bOOM\b/.test(message),
    explain: (f) => {
      const vram = catalogModel(f.modelId)?.vramMB;
      return `The GPU device was lost while running ${f.label}, usually because it ran out of memory${vram ? ` (it needs about ${vram} MB of VRAM)` : ''}. Close other GPU-heavy tabs or pick a smaller model, then run again.`;
    },
  },
  {
    about: 'storage quota exceeded (QuotaExceededError)',
    code: 'storage',
    matches: (name, message) => name === 'QuotaExceededError' || /quota/i.test(message),
    explain: (f) =>
      `The browser refused to store the weights of ${f.label} (storage quota exceeded). Delete cached models you no longer use, free disk space, or allow this site more storage, then run again.`,
  },
  {
    about: 'model host unreachable: offline, DNS, firewall (TypeError: Failed to fetch)',
    code: 'connection',
    matches: (_, message) => UNREACHABLE.test(message.trim()),
    explain: (f) =>
      `Downloading the model weights of ${f.label} failed: the model host could not be reached${fromHosts(f.hosts)}. This browser is offline, or a firewall, proxy or extension blocks the host. ${NOTHING_LOST} Check the connection and run again, or ${OTHER_MODELS}.`,
  },
  {
    about: 'model host answered an error status (Cache.add: Request failed)',
    code: 'http',
    matches: (_, message) => HOST_ERROR.test(message),
    explain: (f) =>
      `Downloading the model weights of ${f.label} failed: ${f.refused ?? `the model host answered with an error instead of a file (${f.message.trim()}).`} The host may be having trouble, or a custom model URL is wrong${fromHosts(f.hosts)}. ${NOTHING_LOST} Try again later, or ${OTHER_MODELS}.`,
  },
  {
    about: 'a downloaded file failed its checksum (IntegrityError)',
    code: 'load',
    matches: (name) => name === 'IntegrityError',
    explain: (f) =>
      `A downloaded file of ${f.label} did not match its checksum, so it was not used. Delete its cached weights (Which models are cached? → Delete) and run again.`,
  },
  {
    about: 'the load was stopped (AbortError)',
    code: 'aborted',
    matches: (name) => name === 'AbortError',
    explain: () => 'The model load was stopped.',
  },
];

/** Turns anything WebLLM (or the browser under it) threw into a ModelError that says what to do. */
export function explainWebLLMError(
  e: unknown,
  modelId: string,
  hosts: readonly string[] = [],
  refused?: string,
): ModelError {
  const name = (e as { name?: unknown } | null)?.name;
  const message = (e as { message?: unknown } | null)?.message;
  const failed: Failed = {
    name: typeof name === 'string' ? name : '',
    message: typeof message === 'string' ? message : String(e),
    label: catalogModel(modelId)?.label ?? (modelId || 'the model'),
    modelId,
    hosts,
    ...(refused !== undefined ? { refused } : {}),
  };
  const overflow = contextError(`WebLLM (${failed.label})`, failed.message);
  if (overflow) return overflow;
  const rule = WEBLLM_ERROR_RULES.find((r) => r.matches(failed.name, failed.message));
  if (rule) return new ModelError(rule.code, rule.explain(failed));
  const what = `${failed.name ? `${failed.name}: ` : ''}${failed.message}`;
  return new ModelError(
    'load',
    `WebLLM failed with ${failed.label}: ${what}. Run again; if it keeps failing, pick another model, or ${OTHER_MODELS}.`,
  );
}
