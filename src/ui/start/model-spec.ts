/**
 * `?model=` on the start screen, in the syntax of `slm run --model`: `gguf:URL` (llama.cpp),
 * `webllm:ID` (a WebLLM catalog model) or `openai:BASE_URL#MODEL` (an endpoint). It only
 * preselects the model: nothing runs and nothing downloads until a person presses Run.
 */

export type ModelSpec =
  | { readonly kind: 'gguf'; readonly url: string }
  | { readonly kind: 'webllm'; readonly modelId: string }
  | { readonly kind: 'openai'; readonly baseUrl: string; readonly model: string };

export function parseModelSpec(spec: string, webllmIds: readonly string[]): ModelSpec | { readonly reason: string } {
  const colon = spec.indexOf(':');
  const scheme = colon > 0 ? spec.slice(0, colon) : '';
  const rest = spec.slice(colon + 1).trim();
  switch (scheme) {
    case 'gguf':
      if (!/^https?:\/\/[^/]/.test(rest))
        return {
          reason: `?model=${spec}: a browser can only load gguf:https://… (a URL serving the .gguf file with CORS); for a file on disk, pick it under llama.cpp.`,
        };
      return { kind: 'gguf', url: rest };
    case 'webllm':
      if (!webllmIds.includes(rest))
        return {
          reason: `?model=${spec}: ${JSON.stringify(rest)} is not a WebLLM catalog model; pick one from the list.`,
        };
      return { kind: 'webllm', modelId: rest };
    case 'openai': {
      const hash = rest.lastIndexOf('#');
      const baseUrl = hash > 0 ? rest.slice(0, hash) : '';
      const model = hash > 0 ? rest.slice(hash + 1) : '';
      if (!/^https?:\/\/[^/]/.test(baseUrl) || !model)
        return {
          reason: `?model=${spec}: write openai:BASE_URL#MODEL, e.g. openai:http://127.0.0.1:11434/v1#qwen2.5-coder:1.5b.`,
        };
      return { kind: 'openai', baseUrl, model };
    }
    default:
      return { reason: `?model=${spec} is not a model spec: use gguf:URL, webllm:ID or openai:BASE_URL#MODEL.` };
  }
}
