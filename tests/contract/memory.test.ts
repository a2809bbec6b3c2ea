/** The Workspace contract against the in-memory backend. */
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { workspaceContract } from './workspace-contract.ts';

workspaceContract('memory', async () => new MemoryWorkspace());
