import { describe, expect, it } from 'vitest';
import { detectLanguage } from './detect-language';
import { languageRules } from './languages';
import { buildPassageIndex, searchPassages } from './passage-index';
import { analyze, foldDiacritics } from './terms';

const terms = (lang: string, text: string) => analyze(text, languageRules(lang));

describe('language-aware terms', () => {
  it('cuts Thai, Lao, Khmer and Burmese into words, not whole phrases', () => {
    expect(terms('th', 'ภาษาไทยสำหรับการทดสอบ')).toEqual(['ภาษา', 'ไทย', 'สำหรับ', 'ทดสอบ']);
    expect(terms('lo', 'ພາສາລາວ')).toEqual(['ພາສາ', 'ລາວ']);
    expect(terms('km', 'ភាសាខ្មែរ').length).toBeGreaterThanOrEqual(1);
    expect(terms('my', 'မြန်မာဘာသာ').join('')).toBe('မြန်မာဘာသာ');
    // Devanagari's vowel signs are part of the word (a letters-only pattern cut them off).
    expect(terms('hi', 'राजधानी')).toEqual(['राजधान']);
  });

  it('matches Chinese and Japanese by segmented words in character pairs', () => {
    expect(terms('zh', '北京大学是中国的大学')).toEqual(['北京', '大学', '中国', '大学']);
    expect(terms('ja', '東京は日本の首都です')).toContain('首都');
  });

  it('stems and drops stop words per language, and folds diacritics where it may', () => {
    expect(terms('en', 'The lighthouses were running')).toEqual(['lighthous', 'run']);
    expect(terms('ru', 'Столица России')).toEqual(terms('ru', 'столицы россии'));
    expect(terms('de', 'Die Häuser')).toEqual(terms('de', 'HAUSER'));
    expect(terms('es', 'canción')).toEqual(terms('es', 'cancion'));
    expect(terms('el', 'Αθήνα')).toEqual(terms('el', 'ΑΘΗΝΑ'));
    expect(foldDiacritics('Zürich')).toBe('Zurich');
    // Vietnamese tones tell words apart: kept.
    expect(terms('vi', 'bàn bán')).toEqual(['bàn', 'bán']);
  });

  it('meets German compounds by their first letters: a long word also gives its first six', () => {
    const asked = terms('de', 'Schmalspurbahnen');
    const written = terms('de', 'Schmalspurschienen');
    expect(asked[0]).not.toBe(written[0]); // different stems
    expect(asked).toContain('schmal');
    expect(written).toContain('schmal');
    // Short words, numbers and other languages' long words give no extra term.
    expect(terms('de', 'Bahnen')).toHaveLength(1);
    expect(terms('de', '1234567890123')).toEqual(['1234567890123']);
    expect(terms('en', 'lighthousekeepers')).toHaveLength(1);
    // A German compound question finds the passage that writes the compound otherwise.
    const index = buildPassageIndex(
      [
        { kind: 'page', label: 'Seite 1', text: 'Die Autobahn führte zum Hafen.' },
        { kind: 'page', label: 'Seite 2', text: 'Die Schmalspurschienen liefen durch das Tal.' },
      ],
      'de',
    );
    const found = searchPassages(index, 'Wo fuhren die Schmalspurbahnen?', 1);
    expect(found[0]?.text).toContain('Schmalspurschienen');
  });

  it('cuts Turkish words to their first five letters, numbers kept whole', () => {
    expect(terms('tr', 'Kitaplarımızdan')).toEqual(['kitap']);
    expect(terms('tr', 'kitapçılar')).toEqual(terms('tr', 'KİTAPÇI'));
    expect(terms('tr', 'İstanbul 1453000')).toEqual(['istan', '1453000']);
  });

  it('detects the language of a file from samples through it', () => {
    expect(detectLanguage('Столица России — Москва, крупнейший город страны.')).toBe('ru');
    expect(detectLanguage('นี่คือข้อความภาษาไทยสำหรับการทดสอบระบบ')).toBe('th');
    const english = 'The harbour works began in spring and ended in the autumn. '.repeat(400);
    expect(detectLanguage('Ein deutsches Vorwort zu diesem Buch. ' + english)).toBe('en');
  });

  it('ranks the passage that answers a Thai question first, with inflected words in Russian', () => {
    const th = buildPassageIndex([
      {
        kind: 'paragraph',
        label: 'Text',
        text: 'วันนี้อากาศดีมาก\n\nงบประมาณของประภาคารเพิ่มขึ้นร้อยละสิบ\n\nแมวกินปลา',
      },
    ]);
    expect(th.language).toBe('th');
    expect(searchPassages(th, 'งบประมาณประภาคารเพิ่มขึ้นเท่าไร', 3)[0]!.text).toContain('ประภาคาร');
    const ru = buildPassageIndex(
      [
        {
          kind: 'paragraph',
          label: 'Text',
          text: 'Кошка спала весь день.\n\nБюджет маяков вырос на десять процентов.',
        },
      ],
      'ru',
    );
    expect(searchPassages(ru, 'Насколько вырос бюджет маяка?', 2)[0]!.text).toContain('маяков');
  });
});
