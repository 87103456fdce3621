import { copyFileSync, mkdirSync } from 'node:fs';
import { defineConfig } from 'tsup';

// Two builds: the library (what `import { CairnChat } from '@cairn/chat-ui'` loads, its
// dependencies left to the host's bundler) and the standalone page `cairn serve` hosts at `/`
// (everything inlined: the server serves static files only). Both copy the stylesheet.

function copy(from: string, to: string): void {
  mkdirSync(to.slice(0, to.lastIndexOf('/')), { recursive: true });
  copyFileSync(from, to);
}

export default defineConfig([
  {
    entry: { index: 'src/index.ts' },
    format: ['esm'],
    dts: true,
    sourcemap: true,
    target: 'es2022',
    platform: 'browser',
    tsconfig: 'tsconfig.build.json',
    external: ['react', 'react-dom', 'react/jsx-runtime'],
    // The page's build writes dist/app at the same time: leave it alone.
    clean: ['!app/**'],
    onSuccess: async () => copy('src/styles.css', 'dist/styles.css'),
  },
  {
    entry: { main: 'app/main.tsx' },
    outDir: 'dist/app/assets',
    format: ['esm'],
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    splitting: false,
    dts: false,
    clean: true,
    tsconfig: 'tsconfig.json',
    noExternal: [/.*/],
    define: { 'process.env.NODE_ENV': '"production"' },
    outExtension: () => ({ js: '.js' }),
    onSuccess: async () => {
      copy('app/index.html', 'dist/app/index.html');
      copy('src/styles.css', 'dist/app/assets/styles.css');
    },
  },
]);
