import { type ConfigFileLocations, mcpConfigFiles } from './config-files.js';
import { readConfigFile } from './read-config-file.js';
import { declareServer, type ServerDeclaration } from './server-declaration.js';

export interface FileServerOptions extends ConfigFileLocations {
  env: Record<string, string | undefined>;
}

export interface FileServers {
  /** One declaration per server name, highest precedence first (project files before user files). */
  declarations: ServerDeclaration[];
  /** Files that could not be used, each naming the file and what is wrong. */
  fileProblems: string[];
}

/**
 * Reads the project and user config files the options ask for. By server name, the first file that
 * declares it wins (see `mcpConfigFiles` for the order): a declaration that cannot be used still hides
 * the same name in lower files, so a broken entry is reported rather than quietly replaced.
 */
export async function loadFileServers(options: FileServerOptions): Promise<FileServers> {
  const files = mcpConfigFiles(options);
  const contents = await Promise.all(files.map((file) => readConfigFile(file.path)));
  const declarations = new Map<string, ServerDeclaration>();
  const fileProblems: string[] = [];
  files.forEach((file, index) => {
    const content = contents[index]!;
    if ('problem' in content) {
      fileProblems.push(content.problem);
      return;
    }
    for (const { name, written } of content.servers) {
      if (declarations.has(name)) continue;
      const placeholders = { env: options.env, workspaceFolder: options.cwd, userHome: options.homeDir };
      declarations.set(name, declareServer(name, written, { origin: file.origin, file: file.path, base: file.base, placeholders }));
    }
  });
  return { declarations: [...declarations.values()], fileProblems };
}
