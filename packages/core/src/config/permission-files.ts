import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PermissionLayer } from '../permissions/index.js';
import type { PermissionRules } from '../permissions/permission-rules.js';
import { ConfigurationError } from '../spec/errors/index.js';

/**
 * `permissions.json`: `{ "allow": [...], "ask": [...], "deny": [...] }`, or the same inside a
 * `"permissions"` key (the shape of Claude Code settings files). A file that exists but cannot be
 * read as that shape is a ConfigurationError: silently skipping a deny list would fail open.
 */
export async function loadPermissionFile(path: string, displayPath: string): Promise<PermissionRules | undefined> {
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
  return rules;
}

/**
 * Permission layers from disk. Deny wins in the engine whatever the layer, so restricting rules are
 * always safe to load; `allow` rules of a layer that was not explicitly trusted are dropped, so a
 * cloned repository cannot grant itself permissions.
 */
export async function loadPermissionLayers(input: { root: string; home: string; project: boolean; user: boolean; projectTrusted: boolean }): Promise<PermissionLayer[]> {
  const layers: PermissionLayer[] = [];
  if (input.project) {
    for (const folder of ['.cairn', '.cursor']) {
      const rules = await loadPermissionFile(join(input.root, folder, 'permissions.json'), `${folder}/permissions.json`);
      if (rules) layers.push({ source: 'project', rules: input.projectTrusted ? rules : withoutAllow(rules) });
    }
  }
  if (input.user) {
    const rules = await loadPermissionFile(join(input.home, 'permissions.json'), '~/.cairn/permissions.json');
    if (rules) layers.push({ source: 'user', rules });
  }
  return layers;
}

function withoutAllow(rules: PermissionRules): PermissionRules {
  const { allow: _dropped, ...rest } = rules;
  return rest;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
