export { createIndex, indexDatabasePath } from './create-index.js';
export { chunkFile, type ChunkFileOptions } from './chunk-file.js';
export { lineWindowChunks, splitLines } from './line-chunks.js';
export { languageForPath, type LanguageId } from './languages.js';
export { reciprocalRankFusion } from './rank-fusion.js';
export { type FileRole, roleFromPath, WorkspaceRoles } from './file-role.js';
export { codeTokens, ftsQuery, identifierParts, pathTokens, tokenizeForIndex } from './tokenize.js';
export { merkleTree } from './hashing.js';
export { embedValues, embeddingModelKey } from './embed-chunks.js';
export type {
  Chunk, ChunkKind, CodebaseIndex, CreateIndexOptions, IndexProgress, IndexStats, SearchOptions, SearchResult, SkippedFile, SyncOptions, SyncResult,
} from './types.js';
