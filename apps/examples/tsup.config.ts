import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/custom-agent.ts', 'src/custom-provider.ts', 'src/mcp-filesystem.ts', 'src/subagents-reviewers.ts', 'src/hooks-block-rm-rf.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
});
