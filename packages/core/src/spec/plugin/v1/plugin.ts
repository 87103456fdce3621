import type { ModeDefinition } from '../../mode/v1/mode.js';
import type { ProviderV1 } from '../../provider/v1/provider.js';
import type { AgentStore } from '../../store/v1/store.js';
import type { ToolDefinition } from '../../tool/v1/tool.js';

/** What a package contributes to a registry: providers, tools, modes, stores. */
export interface CairnPlugin {
  name: string;
  providers?: ProviderV1[];
  tools?: ToolDefinition[];
  modes?: ModeDefinition[];
  /** Named store factories, e.g. `sqlite`, selected by configuration. */
  stores?: Record<string, (options: { home: string }) => AgentStore>;
}
