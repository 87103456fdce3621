import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PermissionLayer } from '../permissions/index.js';
import type { PermissionRules } from '../permissions/permission-rules.js';
import { ConfigurationError } from '../spec/errors/index.js';
import { type AutoRunGuidance, readAutoRunBlock } from './auto-run-guidance.js';

export { type AutoRunGuidance, autoRunGuidanceOf } from './auto-run-guidance.js';

/** A layer read from a `permissions.json`: its rules, and the file's guidance for the auto-reviewer. */
export interface PermissionFileLayer extends PermissionLayer {
  autoRun?: AutoRunGuidance;
}

/** What one `permissions.json` holds. */
export interface PermissionFile {
  rules: PermissionRules;
  autoRun?: AutoRunGuidance;
}

/**
 * `permissions.json`: `{ "allow": [...], "ask": [...], "deny": [...] }`, or the same inside a
 * `"permissions"` key (the shape of Claude Code settings files). A file that exists but cannot be
 * read as that shape is a ConfigurationError: silently skipping a deny list would fail open.
 */
export async function loadPermissionFile(path: string, displayPath: string): Promise<PermissionRules | undefined> {
  return (await loadPermissionFileContents(path, displayPath))?.rules;
}

/** The rules and the optional `autoRun` block (guidance for `local.autoReview`) of one file. */
export async function loadPermissionFileContents(path: string, displayPath: string): Promise<PermissionFile | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw new ConfigurationError(`Cannot read ${displayPath}: ${(error as Error).message}. Fix its permissions or remove it.`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigurationError(`${displayPath} is not valid JSON (${(error as Error).message}). Fix it or remove it; its rules were not applied.`);
  }
  const body = isObject(data) && isObject(data.permissions) ? data.permissions : data;
  if (!isObject(body)) throw new ConfigurationError(`${displayPath} must be a JSON object with "allow", "ask" and/or "deny" arrays of rules.`);
  const rules: PermissionRules = {};
  for (const key of ['allow', 'ask', 'deny'] as const) {
    const value = body[key];
    if (value === undefined) continue;
    if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string')) {
      throw new ConfigurationError(`${displayPath}: "${key}" must be an array of rule strings such as "shell(git status*)".`);
    }
    rules[key] = value;
  }
  // The block sits at the top level (the reference's layout) or beside the rules in "permissions".
  const autoRun = readAutoRunBlock([...new Set([data as Record<string, unknown>, body])].map((holder) => holder.autoRun), displayPath);
  return autoRun ? { rules, autoRun } : { rules };
}

/**
 * Permission layers from disk. Deny wins in the engine whatever the layer, so restricting rules are
 * always safe to load; `allow` rules of a layer that was not explicitly trusted are dropped, so a
 * cloned repository cannot grant itself permissions. The same goes for the guidance that loosens
 * the auto-reviewer (`autoRun.allow_instructions`); its block instructions are kept.
 */
export async function loadPermissionLayers(input: { root: string; home: string; project: boolean; user: boolean; projectTrusted: boolean }): Promise<PermissionFileLayer[]> {
  const layers: PermissionFileLayer[] = [];
  if (input.project) {
    for (const folder of ['.cairn', '.cursor']) {
      const file = await loadPermissionFileContents(join(input.root, folder, 'permissions.json'), `${folder}/permissions.json`);
      if (file) layers.push(layerOf('project', input.projectTrusted ? file : withoutLoosening(file)));
    }
  }
  if (input.user) {
    const file = await loadPermissionFileContents(join(input.home, 'permissions.json'), '~/.cairn/permissions.json');
    if (file) layers.push(layerOf('user', file));
  }
  return layers;
}

function layerOf(source: PermissionLayer['source'], file: PermissionFile): PermissionFileLayer {
  return file.autoRun ? { source, rules: file.rules, autoRun: file.autoRun } : { source, rules: file.rules };
}

function withoutLoosening(file: PermissionFile): PermissionFile {
  const { allow: _dropped, ...rules } = file.rules;
  if (!file.autoRun || file.autoRun.blockInstructions.length === 0) return { rules };
  return { rules, autoRun: { allowInstructions: [], blockInstructions: file.autoRun.blockInstructions } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
