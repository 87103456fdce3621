import { ConfigurationError } from '../spec/errors/index.js';

/**
 * The `autoRun` block of a `permissions.json` (the reference's format): sentences that steer the
 * auto-reviewer (`local.autoReview`). Guidance, not rules: the permission rules still decide first.
 */
export interface AutoRunGuidance {
  /** `allow_instructions`: kinds of calls the reviewer should let through. */
  allowInstructions: string[];
  /** `block_instructions`: kinds of calls the reviewer should refuse. */
  blockInstructions: string[];
}

const fields = { allow_instructions: 'allowInstructions', block_instructions: 'blockInstructions' } as const;
const example = '{ "autoRun": { "allow_instructions": ["Running the test suite is fine."], "block_instructions": ["Never push to a remote."] } }';

/**
 * Read the `autoRun` values found in one file (undefined entries are absent blocks). A wrong shape
 * is a ConfigurationError naming the file: a block instruction that is silently dropped would
 * leave the reviewer less strict than the user wrote.
 */
export function readAutoRunBlock(values: unknown[], displayPath: string): AutoRunGuidance | undefined {
  const present = values.filter((value) => value !== undefined);
  if (present.length === 0) return undefined;
  const guidance: AutoRunGuidance = { allowInstructions: [], blockInstructions: [] };
  for (const value of present) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ConfigurationError(`${displayPath}: "autoRun" must be an object such as ${example}.`);
    }
    for (const [key, entries] of Object.entries(value)) {
      if (!(key in fields)) {
        throw new ConfigurationError(`${displayPath}: "autoRun" has no field "${key}"; it takes "allow_instructions" and "block_instructions" (arrays of sentences).`);
      }
      if (!Array.isArray(entries) || !entries.every((entry) => typeof entry === 'string' && entry.trim() !== '')) {
        throw new ConfigurationError(`${displayPath}: "autoRun.${key}" must be an array of non-empty sentences, for example ${example}.`);
      }
      guidance[fields[key as keyof typeof fields]].push(...entries.map((entry: string) => entry.trim()));
    }
  }
  return guidance;
}

/** The guidance of every layer that has some, in layer order, each sentence once. */
export function autoRunGuidanceOf(layers: ReadonlyArray<{ autoRun?: AutoRunGuidance }>): AutoRunGuidance | undefined {
  const allow = new Set<string>();
  const block = new Set<string>();
  for (const layer of layers) {
    for (const sentence of layer.autoRun?.allowInstructions ?? []) allow.add(sentence);
    for (const sentence of layer.autoRun?.blockInstructions ?? []) block.add(sentence);
  }
  if (allow.size === 0 && block.size === 0) return undefined;
  return { allowInstructions: [...allow], blockInstructions: [...block] };
}
