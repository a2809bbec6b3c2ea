/** Naming the file a WebLLM model host refused, with its URL and status. */
import { describe, expect, it } from 'vitest';
import { failedFileText, firstFailingFile, modelFilesBase } from './webllm-probe.ts';

function fakeFetch(status: Record<string, number>): typeof fetch {
  return (async (url: string | URL | Request) => {
    const s = status[String(url)] ?? 200;
    return new Response(null, { status: s, statusText: s === 404 ? 'Not Found' : s === 403 ? 'Forbidden' : 'OK' });
  }) as typeof fetch;
}

describe('the refused model file', () => {
  it.each([
    ['https://h.example/me/M', 'https://h.example/me/M/resolve/main/'],
    ['https://h.example/me/M/', 'https://h.example/me/M/resolve/main/'],
    ['https://h.example/me/M/resolve/main/', 'https://h.example/me/M/resolve/main/'],
  ])('%s reads its files from %s', (url, base) => expect(modelFilesBase(url)).toBe(base));

  it('names the config when the custom URL is wrong', async () => {
    const f = await firstFailingFile(
      'https://h.example/me/M',
      undefined,
      fakeFetch({ 'https://h.example/me/M/resolve/main/mlc-chat-config.json': 404 }),
    );
    expect(f).toEqual({
      file: 'mlc-chat-config.json',
      url: 'https://h.example/me/M/resolve/main/mlc-chat-config.json',
      status: 404,
      statusText: 'Not Found',
    });
    expect(failedFileText(f!)).toBe(
      'mlc-chat-config.json could not be downloaded: https://h.example/me/M/resolve/main/mlc-chat-config.json answered HTTP 404 Not Found.',
    );
  });

  it('names the library when only it is refused', async () => {
    const lib = 'https://libs.example/M-webgpu.wasm';
    const f = await firstFailingFile('https://h.example/M', lib, fakeFetch({ [lib]: 403 }));
    expect(f).toMatchObject({ file: 'M-webgpu.wasm', status: 403 });
  });

  it('says when the request itself failed, and null when every file answers', async () => {
    const offline = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    expect(failedFileText((await firstFailingFile('https://h.example/M', undefined, offline))!)).toBe(
      'mlc-chat-config.json could not be downloaded: https://h.example/M/resolve/main/mlc-chat-config.json could not be fetched (Failed to fetch).',
    );
    expect(await firstFailingFile('https://h.example/M', undefined, fakeFetch({}))).toBeNull();
  });
});
