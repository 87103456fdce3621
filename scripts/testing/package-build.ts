import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'tsup';

/** The part of esbuild's metafile the build tests read. */
export interface BuildMetafile {
  outputs: Record<string, { imports: Array<{ path: string; kind: string; external?: boolean }>; entryPoint?: string; inputs: Record<string, unknown> }>;
}

export interface PackageBuild {
  outDir: string;
  metafile: BuildMetafile;
  remove(): void;
}

/**
 * Builds a package's `src/index.ts` with its own tsup config, as its release does, plus esbuild's
 * metafile. The output goes inside the package's node_modules, so the build resolves the workspace
 * packages it imports as the published package does.
 */
export async function buildPackageForTest(packageRoot: string, config: object, label: string): Promise<PackageBuild> {
  const outDir = join(packageRoot, 'node_modules', '.cache', `cairn-${label}-build-${process.pid}`);
  await build({ ...config, config: false, entry: { index: join(packageRoot, 'src/index.ts') }, outDir, dts: false, sourcemap: false, silent: true, metafile: true });
  const file = readdirSync(outDir).find((name) => name.startsWith('metafile-') && name.endsWith('.json'));
  const metafile = JSON.parse(readFileSync(join(outDir, file as string), 'utf8')) as BuildMetafile;
  return { outDir, metafile, remove: () => rmSync(outDir, { recursive: true, force: true }) };
}
