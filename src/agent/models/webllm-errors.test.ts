/**
 * WebLLM's errors in plain words: one row per error WebLLM or the browser under it throws
 * (with their real names and messages), the code it becomes, what the message must say, and
 * which rule turned it into that message.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_ID } from './catalog.ts';
import { explainWebLLMError, WEBLLM_ERROR_RULES } from './webllm-errors.ts';

const named = (name: string, message: string) => Object.assign(new Error(message), { name });
const HOSTS = ['huggingface.co', 'raw.githubusercontent.com'];
const OFFLINE_ADVICE =
  /Check the connection and run again, or pick the Scripted model \(works offline\) or an OpenAI-compatible endpoint/;
const NOTHING_LOST =
  /Nothing was lost: your files are as they were, and any weights already downloaded stay cached for the next try\./;

interface Row {
  readonly name: string;
  readonly e: unknown;
  readonly modelId?: string;
  readonly hosts?: readonly string[];
  readonly code: string;
  readonly says: readonly RegExp[];
  /** A word of the matching rule's `about`; null for the catch-all. */
  readonly rule: string | null;
}

const ROWS: readonly Row[] = [
  {
    name: 'WebGPUNotAvailableError',
    e: named(
      'WebGPUNotAvailableError',
      'WebGPU is not supported in your current environment, but it is necessary to run the WebLLM engine.',
    ),
    code: 'gpu',
    says: [/^This browser has no WebGPU/, /pick the Scripted model \(works offline\) or an OpenAI-compatible endpoint/],
    rule: 'WebGPUNotAvailableError',
  },
  {
    name: 'WebGPUNotFoundError',
    e: named('WebGPUNotFoundError', 'Cannot find WebGPU in the environment'),
    code: 'gpu',
    says: [/has no WebGPU/],
    rule: 'WebGPUNotFoundError',
  },
  {
    name: 'no adapter',
    e: new Error(
      "Unable to find a compatible GPU. This issue might be because your computer doesn't have a GPU, or your system settings are not configured properly.",
    ),
    code: 'gpu',
    says: [/found no compatible GPU \(no adapter\)/, /chrome:\/\/gpu/],
    rule: 'no adapter',
  },
  {
    name: 'ShaderF16SupportError, q4f32 build in the catalog',
    e: named(
      'ShaderF16SupportError',
      'This model requires WebGPU extension shader-f16, which is not enabled in this browser.',
    ),
    code: 'gpu',
    says: [
      /lacks shader-f16, which Qwen2\.5-Coder 1\.5B \(a q4f16 build\) needs/,
      /Pick Qwen2\.5-Coder 1\.5B \(q4f32\) instead/,
    ],
    rule: 'ShaderF16SupportError',
  },
  {
    name: 'ShaderF16SupportError, no q4f32 build in the catalog',
    e: named(
      'ShaderF16SupportError',
      'This model requires WebGPU extension shader-f16, which is not enabled in this browser.',
    ),
    modelId: 'Qwen3-4B-q4f16_1-MLC',
    code: 'gpu',
    says: [/Pick a q4f32 build of the model instead/],
    rule: 'ShaderF16SupportError',
  },
  {
    name: 'FeatureSupportError',
    e: named(
      'FeatureSupportError',
      'This model requires feature subgroups, which is not yet supported by this browser.',
    ),
    code: 'gpu',
    says: [/needs a WebGPU feature this browser lacks \(This model requires feature subgroups/],
    rule: 'FeatureSupportError',
  },
  {
    name: 'adapter limits too small',
    e: new Error(
      'Cannot initialize runtime because of requested maxStorageBuffersPerShaderStage exceeds limit. requested=10, limit=8. ',
    ),
    code: 'gpu',
    says: [/WebGPU limits are too small for WebLLM \(.*requested=10, limit=8\.\)/],
    rule: 'limits',
  },
  {
    name: 'DeviceLostError',
    e: named('DeviceLostError', 'The WebGPU device was lost while loading the model.'),
    code: 'gpu',
    says: [/ran out of memory \(it needs about 1630 MB of VRAM\)/, /pick a smaller model/],
    rule: 'DeviceLostError',
  },
  {
    name: 'out of memory in the message',
    e: new Error('GPU out of memory while allocating the KV cache'),
    code: 'gpu',
    says: [/device was lost/],
    rule: 'DeviceLostError',
  },
  {
    name: 'QuotaExceededError (DOMException)',
    e: new DOMException('The quota has been exceeded.', 'QuotaExceededError'),
    code: 'storage',
    says: [/storage quota exceeded/, /Delete cached models/],
    rule: 'QuotaExceededError',
  },
  {
    name: 'offline: TypeError: Failed to fetch (Chromium; Cache.add and fetch)',
    e: new TypeError('Failed to fetch'),
    hosts: HOSTS,
    code: 'connection',
    says: [
      /^Downloading the model weights of Qwen2\.5-Coder 1\.5B failed: the model host could not be reached \(the files come from huggingface\.co and raw\.githubusercontent\.com\)\./,
      /This browser is offline, or a firewall, proxy or extension blocks the host\./,
      NOTHING_LOST,
      OFFLINE_ADVICE,
    ],
    rule: 'Failed to fetch',
  },
  {
    name: 'offline, no host known',
    e: new TypeError('Failed to fetch'),
    code: 'connection',
    says: [/failed: the model host could not be reached\. This browser is offline/],
    rule: 'Failed to fetch',
  },
  {
    name: 'offline (Firefox)',
    e: new TypeError('NetworkError when attempting to fetch resource.'),
    hosts: HOSTS,
    code: 'connection',
    says: [/could not be reached/, NOTHING_LOST],
    rule: 'Failed to fetch',
  },
  {
    name: 'offline (Safari)',
    e: new TypeError('Load failed'),
    hosts: HOSTS,
    code: 'connection',
    says: [/could not be reached/],
    rule: 'Failed to fetch',
  },
  {
    name: 'host answered an error status (Cache.add)',
    e: new TypeError("Failed to execute 'add' on 'Cache': Request failed"),
    hosts: HOSTS,
    code: 'http',
    says: [
      /failed: the model host answered with an error instead of a file \(Failed to execute 'add' on 'Cache': Request failed\)\./,
      /a custom model URL is wrong \(the files come from huggingface\.co and raw\.githubusercontent\.com\)\./,
      NOTHING_LOST,
      /Try again later/,
    ],
    rule: 'Request failed',
  },
  {
    name: 'host answered 404 (OPFS cache)',
    e: new Error(
      'ArtifactOPFSCache: Unable to fetch https://huggingface.co/mlc-ai/x/resolve/main/mlc-chat-config.json, received status 404',
    ),
    code: 'http',
    says: [/received status 404/, /a custom model URL is wrong/],
    rule: 'Request failed',
  },
  {
    name: 'IntegrityError',
    e: named('IntegrityError', 'Integrity verification failed for https://huggingface.co/x'),
    code: 'load',
    says: [/did not match its checksum/, /Delete its cached weights/],
    rule: 'IntegrityError',
  },
  {
    name: 'AbortError',
    e: new DOMException('The operation was aborted.', 'AbortError'),
    code: 'aborted',
    says: [/^The model load was stopped\.$/],
    rule: 'AbortError',
  },
  {
    name: 'anything else keeps its own words and says what to do',
    e: new Error('something else'),
    code: 'load',
    says: [
      /^WebLLM failed with Qwen2\.5-Coder 1\.5B: Error: something else\. Run again; if it keeps failing, pick another model/,
    ],
    rule: null,
  },
  // "OOM" is matched as a word: a message that merely contains the letters is not a lost device.
  {
    name: 'a word containing "oom"',
    e: new Error('zoom level not supported'),
    code: 'load',
    says: [/WebLLM failed with/],
    rule: null,
  },
  {
    name: 'a thrown string',
    e: 'boom',
    modelId: 'Custom-Model',
    code: 'load',
    says: [/^WebLLM failed with Custom-Model: boom\./],
    rule: null,
  },
];

describe('explainWebLLMError', () => {
  it.each(ROWS)('$name', (row) => {
    const m = explainWebLLMError(row.e, row.modelId ?? DEFAULT_MODEL_ID, row.hosts);
    expect(m.name).toBe('ModelError');
    expect(m.code).toBe(row.code);
    for (const re of row.says) expect(m.message).toMatch(re);
    const err = row.e as { name?: string; message?: string };
    const matched = WEBLLM_ERROR_RULES.find((r) => r.matches(err.name ?? '', err.message ?? String(row.e)));
    if (row.rule === null) expect(matched).toBeUndefined();
    else expect(matched?.about).toContain(row.rule);
  });

  it('every rule has a row', () => {
    const covered = WEBLLM_ERROR_RULES.filter((r) =>
      ROWS.some((row) => row.rule !== null && r.about.includes(row.rule)),
    );
    expect(covered.map((r) => r.about)).toEqual(WEBLLM_ERROR_RULES.map((r) => r.about));
  });
});

describe('a refused file, once found out', () => {
  it('replaces Cache.add\'s bare "Request failed" with the file, its URL and the status', () => {
    const e = new TypeError("Failed to execute 'add' on 'Cache': Request failed");
    const refused =
      'mlc-chat-config.json could not be downloaded: https://h.example/M/resolve/main/mlc-chat-config.json answered HTTP 404 Not Found.';
    const err = explainWebLLMError(e, 'Custom-M', ['h.example'], refused);
    expect(err.code).toBe('http');
    expect(err.message).toContain(`failed: ${refused} The host may be having trouble, or a custom model URL is wrong`);
    expect(err.message).not.toContain('Request failed');
  });
});
