/** Import rules from docs/ARCHITECTURE.md, checked by `npm run lint:imports` (part of `npm test`). */
module.exports = {
  forbidden: [
    {
      name: 'engine-is-pure',
      comment: 'src/engine/ imports nothing else of src/, and no DOM, Svelte, WebLLM or WebContainer.',
      severity: 'error',
      from: { path: '^src/engine/', pathNot: '\\.test\\.ts$' },
      to: { path: ['^src/(?!engine/)', 'node_modules/(svelte|@mlc-ai|@webcontainer|@codemirror|@xterm)/'] },
    },
    {
      name: 'engine-tests-use-backends-only',
      comment:
        'Engine tests may use real backends and platform wiring (no mocks where a real part fits), nothing else.',
      severity: 'error',
      from: { path: '^src/engine/.*\\.test\\.ts$' },
      to: {
        path: [
          '^src/(?!engine/|workspace/|platform/)',
          'node_modules/(svelte|@mlc-ai|@webcontainer|@codemirror|@xterm)/',
        ],
      },
    },
    {
      name: 'engine-no-node-builtins',
      comment: 'The engine runs in a browser worker: no node: builtins outside its tests.',
      severity: 'error',
      from: { path: '^src/engine/', pathNot: '\\.test\\.ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'workspace-agent-not-ui-worker',
      comment: 'workspace/ and agent/ import engine/ only; never ui/ or worker/.',
      severity: 'error',
      from: { path: '^src/(workspace|agent)/' },
      to: { path: '^src/(ui|worker|session|cli)/' },
    },
    {
      name: 'session-below-ui',
      comment:
        'session/ depends on engine/, agent/ and workspace/ (fresh workspaces and templates to replay in), never on ui/, worker/ or cli/.',
      severity: 'error',
      from: { path: '^src/session/' },
      to: { path: '^src/(ui|worker|cli)/' },
    },
    {
      name: 'eval-is-portable',
      comment:
        'src/eval/ runs in the engine worker and in the CLI alike: no node: builtins outside its tests, never ui/, worker/ or cli/.',
      severity: 'error',
      from: { path: '^src/eval/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(ui|worker|cli)/' },
    },
    {
      name: 'eval-no-node-builtins',
      comment: 'src/eval/ runs in a browser worker: no node: builtins outside its tests.',
      severity: 'error',
      from: { path: '^src/eval/', pathNot: '\\.test\\.ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'ui-through-worker',
      comment:
        'ui/ never imports runtime code from engine/, agent/ or workspace/: all work goes through worker/client.ts.',
      severity: 'error',
      from: { path: '^src/ui/' },
      to: { path: '^src/(engine|agent|workspace)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'webllm-only-in-its-adapter',
      severity: 'error',
      from: { pathNot: '^src/agent/models/webllm' },
      to: { path: 'node_modules/@mlc-ai/web-llm' },
    },
    {
      name: 'wllama-only-in-its-adapter',
      severity: 'error',
      from: { pathNot: '^src/agent/models/wllama\\.ts$' },
      to: { path: 'node_modules/@wllama/wllama' },
    },
    {
      name: 'node-llama-cpp-only-in-its-adapter',
      severity: 'error',
      from: { pathNot: '^src/agent/models/gguf-node' },
      to: { path: 'node_modules/node-llama-cpp' },
    },
    {
      name: 'gguf-node-off-the-browser',
      comment:
        'The Node llama.cpp adapter (gguf-node.ts) serves the CLI, the bench and tests; nothing a browser bundle holds imports it.',
      severity: 'error',
      from: { path: '^src/(?!cli/)', pathNot: ['^src/agent/models/gguf-node', '\\.test\\.ts$'] },
      to: { path: '^src/agent/models/gguf-node\\.ts$' },
    },
    {
      name: 'webcontainer-only-in-its-backend',
      severity: 'error',
      from: { pathNot: '^src/workspace/webcontainer' },
      to: { path: 'node_modules/@webcontainer/api' },
    },
    {
      name: 'webcontainer-host-on-the-main-thread',
      comment:
        "WebContainer boots on the main thread only: in worker/, only webcontainer-link.ts (the page's side) reaches its host. " +
        'The engine worker imports workspace/webcontainer/ by file, node-syntax-check.ts alone, so it never bundles @webcontainer/api.',
      severity: 'error',
      from: { path: '^src/worker/', pathNot: ['^src/worker/webcontainer-link\\.ts$', '\\.test\\.ts$'] },
      to: {
        path: '^src/workspace/webcontainer/',
        pathNot: '^src/workspace/webcontainer/node-syntax-check\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
