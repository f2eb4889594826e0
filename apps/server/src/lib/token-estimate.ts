/**
 * Token count without a tokenizer: ~4 characters per token for Latin text, one per character for
 * CJK and similar scripts. Deliberately on the high side, so prompts budgeted with it still fit.
 */
export function estimateTokens(text: string): number {
  // Code points above U+2E80, counted by UTF-16 unit (a string's iterator costs several times
  // more, and the index counts every passage): a surrogate pair is one code point.
  let wide = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x2e80) continue;
    wide += 1;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  const narrow = text.length - wide;
  return Math.ceil(narrow / 3.5) + wide;
}
