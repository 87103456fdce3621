import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from '@hono/zod-openapi';
import type { agentSettingsSchema } from './http/schemas.js';

/** The options of an agent the SDK does not store (permissions, tools, ...), kept by the server for resume. */
export type AgentSettings = z.infer<typeof agentSettingsSchema> & { sandbox?: boolean; settingSources?: string[] };

/**
 * One JSON file per agent under `<home>/server/agents/`, written atomically (temp file + rename):
 * a server restarted after a crash reopens each agent with the options it was created with.
 */
export class AgentSettingsStore {
  constructor(private readonly dir: string) {}

  static under(home: string): AgentSettingsStore {
    return new AgentSettingsStore(join(home, 'server', 'agents'));
  }

  async get(agentId: string): Promise<AgentSettings> {
    try {
      return JSON.parse(await readFile(this.file(agentId), 'utf8')) as AgentSettings;
    } catch {
      // An agent the server did not create (the CLI's, say) gets the interactive defaults only.
      return {};
    }
  }

  async save(agentId: string, settings: AgentSettings): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const temporary = `${this.file(agentId)}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(settings)}\n`, { mode: 0o600 });
    await rename(temporary, this.file(agentId));
  }

  async remove(agentId: string): Promise<void> {
    await rm(this.file(agentId), { force: true });
  }

  private file(agentId: string): string {
    return join(this.dir, `${encodeURIComponent(agentId)}.json`);
  }
}
