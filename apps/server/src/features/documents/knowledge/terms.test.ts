import { describe, expect, it } from 'vitest';
import { languageRules } from '../retrieval/languages';
import { analyze } from '../retrieval/terms';
import { hashTerm, indexTerms, indexTermsJoined } from './terms';

describe('index terms', () => {
  const texts: [string, string][] = [
    ['en', 'The lighthouse budgets grew: 3 lighthouses, the keeper’s budget, budgeting again.'],
    ['ru', 'Бюджет маяков вырос; бюджет маяка — в 2 раза.'],
    ['th', 'งบประมาณประภาคารเพิ่มขึ้น งบประมาณ'],
    ['zh', '灯塔的预算增加了，灯塔预算'],
    ['tr', 'İstanbul’da Işık bütçesi arttı, ISTANBUL'],
  ];

  it('are the language-aware terms, hashed, in order with repeats, joined by spaces', () => {
    for (const [lang, text] of texts) {
      const expected = analyze(text, languageRules(lang)).map(hashTerm);
      // Twice: the second time from the runs remembered.
      for (let i = 0; i < 2; i++) {
        const { joined, count } = indexTermsJoined(text, lang);
        expect(joined).toBe(expected.join(' '));
        expect(count).toBe(expected.length);
        expect(indexTerms(text, lang)).toEqual(expected);
      }
    }
  });

  it('are none for a text of stop words and punctuation', () => {
    expect(indexTermsJoined('the of and, — !', 'en')).toEqual({ joined: '', count: 0 });
    expect(indexTerms('', 'en')).toEqual([]);
  });
});
