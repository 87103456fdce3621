import { createHash } from 'node:crypto';

export interface HashedEmbeddingOptions {
  dimensions: number;
  /**
   * Words that mean the same thing, each mapped to one canonical word before hashing
   * (`{ automobile: 'car' }`), so a test can ask a question only the vectors can answer.
   */
  concepts?: Record<string, string>;
}

/** Identifier-aware words: `parseHTTPHeader_value` -> parse, http, header, value. */
export function embeddingWords(text: string): string[] {
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  return spaced.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

function bucketOf(word: string, dimensions: number): { index: number; sign: number } {
  const digest = createHash('sha1').update(word).digest();
  return { index: digest.readUInt32BE(0) % dimensions, sign: (digest[4]! & 1) === 0 ? 1 : -1 };
}

/**
 * A deterministic stand-in for an embedding model: a hashed bag of words (the hashing trick), L2
 * normalised, so texts sharing words are near in cosine distance and unrelated texts are far.
 */
export function hashedEmbedding(text: string, options: HashedEmbeddingOptions): number[] {
  const vector = new Array<number>(options.dimensions).fill(0);
  for (const word of embeddingWords(text)) {
    const canonical = options.concepts?.[word] ?? word;
    const { index, sign } = bucketOf(canonical, options.dimensions);
    vector[index] = (vector[index] ?? 0) + sign;
  }
  const norm = Math.hypot(...vector);
  if (norm === 0) {
    // Text without words still gets a valid unit vector (a zero vector has no cosine distance).
    vector[0] = 1;
    return vector;
  }
  return vector.map((value) => value / norm);
}
