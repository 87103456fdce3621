const simpleEscapes: Record<string, string> = {
  a: '\u0007', b: '\b', e: '\u001b', E: '\u001b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?',
};

/**
 * The value of a `$'...'` word, decoded the way bash does (`$'\x72m'` is `rm`), or undefined when it
 * uses an escape we do not decode with certainty. The argument is the whole node text, `$'` included.
 * Decoding matters for deny rules: an ANSI-C string is as static as a quoted one, and treating it as
 * unknown text would let `$'\x72m'` slip past `shell(rm*)`.
 */
export function decodeAnsiCString(text: string): string | undefined {
  if (!text.startsWith("$'") || !text.endsWith("'")) return undefined;
  const body = text.slice(2, -1);
  let output = '';
  for (let index = 0; index < body.length; index++) {
    const character = body[index] as string;
    if (character !== '\\') {
      output += character;
      continue;
    }
    const next = body[index + 1];
    if (next === undefined) return undefined;
    const simple = simpleEscapes[next];
    if (simple !== undefined) {
      output += simple;
      index++;
      continue;
    }
    const numeric = numericEscape(body, index + 1);
    if (numeric) {
      output += numeric.text;
      index = numeric.end - 1;
      continue;
    }
    if (next === 'c') return undefined; // control characters: rare, and not worth a second decoder
    output += `\\${next}`; // bash keeps unknown escapes as written
    index++;
  }
  // bash ends the word at the first NUL byte.
  const nul = output.indexOf('\u0000');
  return nul === -1 ? output : output.slice(0, nul);
}

function numericEscape(body: string, start: number): { text: string; end: number } | undefined {
  const kind = body[start] as string;
  const forms: Record<string, { digits: RegExp; radix: number; skip: number }> = {
    x: { digits: /^[0-9A-Fa-f]{1,2}/, radix: 16, skip: 1 },
    u: { digits: /^[0-9A-Fa-f]{1,4}/, radix: 16, skip: 1 },
    U: { digits: /^[0-9A-Fa-f]{1,8}/, radix: 16, skip: 1 },
  };
  const form = forms[kind] ?? (/[0-7]/.test(kind) ? { digits: /^[0-7]{1,3}/, radix: 8, skip: 0 } : undefined);
  if (!form) return undefined;
  const digits = form.digits.exec(body.slice(start + form.skip))?.[0];
  if (!digits) return undefined;
  const code = Number.parseInt(digits, form.radix);
  if (code > 0x10ffff) return undefined;
  // \x and octal escapes are bytes; above 0x7f they would form UTF-8 sequences we do not rebuild.
  if ((kind === 'x' || form.radix === 8) && code > 0x7f) return undefined;
  return { text: String.fromCodePoint(code), end: start + form.skip + digits.length };
}
