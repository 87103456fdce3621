// What `import '@cairn/sdk'` loads before anything runs: the start-up budget (docs/benchmarks.md)
// keeps heavy code behind dynamic imports, loaded at first use. This bundles the SDK from its sources
// the way a bundler would, follows only the static imports from the entry, and fails naming the chain
// that reaches a package or a Node built-in that must wait for first use.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

interface MetafileImport {
  path: string;
  kind: string;
  external?: boolean;
}
interface Metafile {
  inputs: Record<string, { imports: MetafileImport[] }>;
}
interface Esbuild {
  build(options: Record<string, unknown>): Promise<{ metafile: Metafile }>;
}
// esbuild ships with tsup, the build tool, so it is loaded through tsup's own resolution.
const esbuild = createRequire(createRequire(import.meta.url).resolve('tsup/package.json'))('esbuild') as Esbuild;
const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** Loaded on first use only: a schema library, the MCP SDK, the web page converter, the code index, process and network modules. */
const firstUseOnly = ['zod', '@modelcontextprotocol/sdk', 'turndown', '@cairn/indexer', 'web-tree-sitter', 'child_process', 'http', 'https', 'net', 'dns', 'zlib', 'vm'];

/** A bare specifier's package name (`@scope/name` or `name`), a built-in without its `node:` prefix. */
function packageName(specifier: string): string {
  const bare = specifier.replace(/^node:/, '');
  const parts = bare.split('/');
  return bare.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? bare);
}

/** Every external package reached from the entry through static imports, with the chain that reaches it. */
async function staticallyImported(entry: string): Promise<Map<string, string[]>> {
  const { metafile } = await esbuild.build({
    absWorkingDir: packageDir,
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    outdir: 'out',
    splitting: true,
    conditions: ['cairn-source'],
    logLevel: 'silent',
    plugins: [
      {
        name: 'externals',
        setup(build: { onResolve(options: { filter: RegExp }, callback: (args: { path: string }) => { path: string; external: true } | undefined): void }) {
          // Cairn's own packages are followed from their sources; everything else stays a named import.
          build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@cairn/') && !args.path.startsWith('@cairn/indexer') ? undefined : { path: args.path, external: true }));
        },
      },
    ],
  });
  const reached = new Map<string, string[]>();
  const seen = new Set<string>();
  const visit = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of metafile.inputs[file]?.imports ?? []) {
      if (imported.kind !== 'import-statement') continue;
      if (imported.external) {
        const name = packageName(imported.path);
        if (!reached.has(name)) reached.set(name, [...chain, file]);
        continue;
      }
      visit(imported.path, [...chain, file]);
    }
  };
  visit(Object.keys(metafile.inputs).find((file) => file.endsWith('sdk/src/index.ts')) ?? 'src/index.ts', []);
  return reached;
}

describe('import "@cairn/sdk"', () => {
  it('loads nothing that waits for first use (static imports only)', async () => {
    const reached = await staticallyImported('src/index.ts');
    expect(reached.size).toBeGreaterThan(0);
    const offending = firstUseOnly.filter((name) => reached.has(name)).map((name) => `${name} <- ${(reached.get(name) ?? []).slice(-4).reverse().join(' <- ')}`);
    expect(offending).toEqual([]);
  });
});
