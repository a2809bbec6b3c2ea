/**
 * A model port over an in-process model host, for tests of the page's side of the model worker:
 * messages go a task later each way, as they would to and from a real worker.
 */
import { ModelError } from '../../src/agent/model.ts';
import type { HostedModel } from '../../src/agent/models/worker-host.ts';
import type { LoadRequest } from '../../src/agent/models/worker-protocol.ts';
import { serveModel } from '../../src/worker/model-wire.ts';
import type { ModelPort } from '../../src/worker/run-models.ts';

/** A port whose host answers each load with `load`; `onError` receives the port's error listener. */
export function inProcessModelPort(
  load: (req: LoadRequest) => Promise<HostedModel>,
  onError: (listener: (e: Event) => void) => void = () => {},
): ModelPort {
  const listeners: ((e: Event) => void)[] = [];
  let toHost: (message: unknown) => void = () => {};
  serveModel(
    {
      post: (m) => setTimeout(() => listeners.forEach((l) => l(new MessageEvent('message', { data: m })))),
      listen: (receive) => (toHost = receive),
    },
    async () => ({
      load,
      isCached: async () => false,
      deleteCached: async () => {},
      gpu: async () => {
        throw new ModelError('gpu', 'not used');
      },
    }),
  );
  return {
    postMessage: (m) => setTimeout(() => toHost(m)),
    addEventListener: (type, l) => {
      if (type === 'message') listeners.push(l);
      else onError(l);
    },
    terminate: () => {},
  };
}
