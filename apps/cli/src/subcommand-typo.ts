/**
 * `cairn agnets` is a typo of a subcommand far more often than a one-word request to the model. The
 * rule: the whole prompt is one word of letters and hyphens, not a subcommand itself, within an edit
 * distance (with swaps of neighbours counting as one edit) of 1 from a subcommand name of up to four
 * letters, or 2 from a longer one. Longer prompts, and prompts read from stdin, always go to the model.
 */
export function likelySubcommand(words: string[], names: string[]): string | undefined {
  if (words.length !== 1) return undefined;
  const word = (words[0] ?? '').toLowerCase();
  if (!/^[a-z][a-z-]*$/.test(word) || names.includes(word)) return undefined;
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(word, name);
    if (distance <= (name.length <= 4 ? 1 : 2) && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** The message for a likely typo: the command meant, and how to send the word to the model anyway. */
export function subcommandTypoMessage(word: string, name: string): string {
  return `cairn: unknown command "${word}". Did you mean \`cairn ${name}\`? To send "${word}" to the model as a prompt, pipe it: echo ${word} | cairn\n`;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  const width = b.length + 1;
  const cells = new Array<number>((a.length + 1) * width).fill(0);
  const at = (i: number, j: number) => cells[i * width + j] ?? 0;
  for (let i = 0; i <= a.length; i++) cells[i * width] = i;
  for (let j = 0; j <= b.length; j++) cells[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, at(i - 2, j - 2) + 1);
      cells[i * width + j] = value;
    }
  }
  return at(a.length, b.length);
}
