import { type HookFileLayers, type HookProjectFile, type LoadedHookFile, loadHookFiles } from './hook-files.js';

export interface TrustedHookFilesInput extends HookFileLayers {
  /** `local.trustProjectHooks`: asked for each project file; without it, a loaded project layer's hooks run. */
  trust?(file: HookProjectFile): boolean | Promise<boolean>;
  warn(text: string): void;
}

/**
 * The hooks files of the layers asked for, with the project files the host did not trust left
 * out (and said so). What a file declares that Cairn does not run is said too, never dropped quietly.
 */
export async function trustedHookFiles(input: TrustedHookFilesInput): Promise<LoadedHookFile[]> {
  const files = await loadHookFiles(input);
  const kept: LoadedHookFile[] = [];
  for (const file of files) {
    if (file.unsupported.length) input.warn(`${file.file} declares ${file.unsupported.join(', ')}, which Cairn does not run (docs/hooks.md lists the events it runs).`);
    if (file.layer === 'project' && input.trust && file.hookCommands.length > 0) {
      const { file: path, format, hash, commands } = file;
      const trusted = await Promise.resolve(input.trust({ file: path, format, hash, commands })).catch(() => false);
      if (!trusted) {
        input.warn(`The hooks of ${file.file} were left out: they are not trusted in this workspace.`);
        continue;
      }
    }
    kept.push(file);
  }
  return kept;
}
