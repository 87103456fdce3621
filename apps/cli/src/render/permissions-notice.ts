import { access } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The permissions.json files a workspace's runs read, as the user would write their paths. */
function permissionFiles(cwd: string, env: Record<string, string | undefined>): Array<{ label: string; path: string }> {
  const home = env.CAIRN_HOME?.trim();
  return [
    { label: '.cairn/permissions.json', path: join(cwd, '.cairn', 'permissions.json') },
    { label: '.cursor/permissions.json', path: join(cwd, '.cursor', 'permissions.json') },
    { label: home ? '$CAIRN_HOME/permissions.json' : '~/.cairn/permissions.json', path: join(home || join(homedir(), '.cairn'), 'permissions.json') },
  ];
}

const exists = (path: string) => access(path).then(() => true, () => false);

/**
 * One line for the start of a headless text run: what may run without asking, that `ask` rules are
 * refused (nobody can answer them), and which files to edit to change that.
 */
export async function permissionsNotice(cwd: string, env: Record<string, string | undefined>, mode: string | undefined): Promise<string> {
  const files = permissionFiles(cwd, env);
  const found = (await Promise.all(files.map(async (file) => ((await exists(file.path)) ? file.label : undefined)))).filter(Boolean);
  const rules = found.length ? `rules from ${found.join(', ')}` : `no rules yet (add them to .cairn/permissions.json or ${files[2]!.label})`;
  const readOnly = mode === 'plan' || mode === 'ask';
  const what = readOnly ? `${mode} mode: read-only tools only` : 'tools run without asking unless a rule says otherwise';
  return `[permissions: ${what} · ${rules} · "ask" rules are refused in headless runs; "deny" rules always apply]`;
}
