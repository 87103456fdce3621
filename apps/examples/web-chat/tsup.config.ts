import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineConfig } from 'tsup';

// The page as static files in web-chat/dist: main.js (the chat and React bundled in),
// index.html and the chat's stylesheet.
const styles = createRequire(import.meta.url).resolve('@cairn/chat-ui/styles.css');

export default defineConfig({
  entry: { main: 'web-chat/main.tsx' },
  outDir: 'web-chat/dist',
  format: ['esm'],
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  clean: true,
  noExternal: [/.*/],
  define: { 'process.env.NODE_ENV': '"production"' },
  esbuildOptions: (options) => {
    options.jsx = 'automatic';
  },
  outExtension: () => ({ js: '.js' }),
  onSuccess: async () => {
    mkdirSync('web-chat/dist', { recursive: true });
    copyFileSync('web-chat/index.html', 'web-chat/dist/index.html');
    copyFileSync(styles, 'web-chat/dist/styles.css');
  },
});
