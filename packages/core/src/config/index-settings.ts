import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type EmbeddingSetting, parseEmbeddingSetting } from '../registry/embedding-setting.js';
import { ConfigurationError } from '../spec/errors/index.js';
import type { ResolvedSettingSources } from './setting-sources.js';

/** The `index` section of `settings.json`: how the codebase index (codebase_search, `cairn index`) is built. */
export interface IndexSettings {
  /** The embedding model of the index, from the nearest layer that sets one (project before user). */
  embeddings?: EmbeddingSetting;
  /** The file it came from, for messages. */
  embeddingsSource?: string;
}

async function readSettingsFile(path: string): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigurationError(`${path} is not valid JSON (${(error as Error).message}); fix or remove it.`, { code: 'invalid_setting' });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigurationError(`${path} must hold a JSON object, e.g. { "index": { "embeddings": "openai/text-embedding-3-small" } }.`, { code: 'invalid_setting' });
  return parsed as Record<string, unknown>;
}

function embeddingsOf(settings: Record<string, unknown> | undefined, path: string): EmbeddingSetting | undefined {
  const section = settings?.index;
  if (section === undefined) return undefined;
  if (typeof section !== 'object' || section === null || Array.isArray(section)) throw new ConfigurationError(`"index" in ${path} must be an object, e.g. { "embeddings": "openai/text-embedding-3-small" }.`, { code: 'invalid_setting' });
  const value = (section as Record<string, unknown>).embeddings;
  return value === undefined ? undefined : parseEmbeddingSetting(value, `index.embeddings in ${path}`);
}

/**
 * `index` settings from `.cairn/settings.json` (project) and `$CAIRN_HOME/settings.json` (user), for
 * the layers that load. A project file may name a model but, unless the project layer was asked for
 * explicitly, not where the workspace's code and the user's key are sent (`baseURL`, `apiKey`): a
 * cloned repository must not redirect them to its own server.
 */
export async function loadIndexSettings(input: { root: string; home: string; sources: ResolvedSettingSources }): Promise<IndexSettings> {
  const layers: Array<{ path: string; trusted: boolean }> = [];
  if (input.sources.project) layers.push({ path: join(input.root, '.cairn', 'settings.json'), trusted: input.sources.projectTrusted });
  if (input.sources.user) layers.push({ path: join(input.home, 'settings.json'), trusted: input.sources.userTrusted });
  for (const layer of layers) {
    const embeddings = embeddingsOf(await readSettingsFile(layer.path), layer.path);
    if (embeddings === undefined) continue;
    if (!layer.trusted && typeof embeddings === 'object' && ('baseURL' in embeddings || 'apiKey' in embeddings)) {
      throw new ConfigurationError(
        `index.embeddings in ${layer.path} sets baseURL or apiKey, which a project file may set only when the project layer is trusted (local.settingSources: ['project']). Set them in ${join(input.home, 'settings.json')}, pass them inline, or use OPENAI_BASE_URL / the provider's key variable.`,
        { code: 'untrusted_setting' },
      );
    }
    return { embeddings, embeddingsSource: layer.path };
  }
  return {};
}
