/**
 * Server-sent events, the framing of a streaming `/v1/chat/completions` reply: yields the
 * `data` payload of each event (multi-line data joined with `\n`), ignoring comments and other
 * fields. Works on any byte stream (fetch in a browser, a worker or Node).
 */

export async function* sseData(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  try {
    for (;;) {
      if (signal?.aborted) return;
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.search(/\r\n|\r|\n/)) >= 0) {
        // A lone CR at the end may be the first half of a CRLF split across chunks.
        if (!done && nl === buffer.length - 1 && buffer[nl] === '\r') break;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + (buffer.startsWith('\r\n', nl) ? 2 : 1));
        if (line === '') {
          // A blank line dispatches the event.
          if (data.length) yield data.join('\n');
          data = [];
        } else if (line.startsWith('data:')) {
          data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
        }
      }
      if (done) {
        // A stream may end without the final blank line.
        if (buffer.startsWith('data:')) data.push(buffer.slice(buffer.startsWith('data: ') ? 6 : 5));
        if (data.length) yield data.join('\n');
        return;
      }
    }
  } finally {
    reader.releaseLock();
  }
}
