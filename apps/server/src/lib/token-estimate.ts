/**
 * Token count without a tokenizer: ~4 characters per token for Latin text, one per character for
 * CJK and similar scripts. Deliberately on the high side, so prompts budgeted with it still fit.
 */
export function estimateTokens(text: string): number {
  let wide = 0;
  for (const ch of text) if (ch.codePointAt(0)! > 0x2e80) wide += 1;
  const narrow = text.length - wide;
  return Math.ceil(narrow / 3.5) + wide;
}
