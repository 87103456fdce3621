import { readFileSync } from 'node:fs';

/** The CLI package's own package.json fields the CLI reports (`--version`, `cairn doctor`). */
export interface PackageInfo {
  version: string;
  engines: { node?: string };
}

let info: PackageInfo | undefined;

/** Read once from the package.json next to `src/` or `dist/` (both sit one level below it). */
export function packageInfo(): PackageInfo {
  info ??= JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as PackageInfo;
  return info;
}
