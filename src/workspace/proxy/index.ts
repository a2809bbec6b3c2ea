/** The workspace proxy: a Workspace forwarded over a MessagePort, and the side that serves it (re-exports only). */
export { ProxyWorkspace, type ProxyOptions } from './proxy-workspace.ts';
export { serveWorkspace, type WorkspaceServer } from './serve.ts';
