import { access, constants } from 'node:fs/promises';

let located: Promise<string | undefined> | undefined;

/**
 * The `rg` binary shipped by `@vscode/ripgrep` (a platform package, no download), or undefined
 * when this platform has none: the grep tool then uses its built-in engine.
 */
export function locateRipgrep(): Promise<string | undefined> {
  located ??= (async () => {
    try {
      const { rgPath } = (await import('@vscode/ripgrep')) as { rgPath: string };
      await access(rgPath, constants.X_OK);
      return rgPath;
    } catch {
      return undefined;
    }
  })();
  return located;
}
