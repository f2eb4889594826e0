import { describe, expect, it } from 'vitest';
import { estimateTokens } from './token-estimate';

describe('estimateTokens', () => {
  it('counts ~3.5 characters a token for narrow scripts and one a character for wide ones', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('a'.repeat(35))).toBe(10);
    expect(estimateTokens('Привет, мир')).toBe(Math.ceil(11 / 3.5));
    expect(estimateTokens('你好世界')).toBe(4);
    expect(estimateTokens('ab你好')).toBe(1 + 2);
  });

  it('counts wide code points as a string iterator sees them: a surrogate pair is one', () => {
    const byIterator = (text: string) => {
      let wide = 0;
      for (const ch of text) if (ch.codePointAt(0)! > 0x2e80) wide += 1;
      return Math.ceil((text.length - wide) / 3.5) + wide;
    };
    // U+20BB7 (𠮷) and an emoji (pairs), lone halves, and mixed text.
    for (const text of ['𠮷', '🙂🙂', '\ud842', '\udfb7x', 'a\ud842\udfb7b', '東京 Tokyo 🙂 ทดสอบ'])
      expect(estimateTokens(text)).toBe(byIterator(text));
  });
});
