import { describe, expect, it } from 'vitest';
import { cutLong, MAX_SENTENCE_CHARS, splitSentences } from './sentences';

describe('splitSentences', () => {
  it('splits at full stops, question and exclamation marks followed by a new sentence', () => {
    expect(splitSentences('The tide rose. Was the lamp lit? It was!  The end')).toEqual([
      'The tide rose.',
      'Was the lamp lit?',
      'It was!',
      'The end',
    ]);
  });

  it('does not split after abbreviations, titles, initials or dotted acronyms', () => {
    const text =
      'Dr. Smith met Mr. J. R. Tolkien in the U.S. capital at 5 p.m. yesterday. ' +
      'Bring tools, e.g. hammers, i.e. heavy ones. They left.';
    expect(splitSentences(text)).toEqual([
      'Dr. Smith met Mr. J. R. Tolkien in the U.S. capital at 5 p.m. yesterday.',
      'Bring tools, e.g. hammers, i.e. heavy ones.',
      'They left.',
    ]);
  });

  it('keeps decimal numbers, amounts, versions and addresses whole', () => {
    expect(splitSentences('Costs rose 3.5% to $1,200.50 in v2.1. See example.com now.')).toEqual([
      'Costs rose 3.5% to $1,200.50 in v2.1.',
      'See example.com now.',
    ]);
  });

  it('keeps a number after No., p. and Fig. in its sentence, but "no." can end one', () => {
    expect(splitSentences('See No. 5 on p. 12 and Fig. 3. He said no. Then he left.')).toEqual([
      'See No. 5 on p. 12 and Fig. 3.',
      'He said no.',
      'Then he left.',
    ]);
  });

  it('splits after "etc." only before a capital', () => {
    expect(splitSentences('Pens, paper etc. were bought. Ink, nibs etc. and more.')).toEqual([
      'Pens, paper etc. were bought.',
      'Ink, nibs etc. and more.',
    ]);
    expect(splitSentences('Pens, paper etc. Then ink.')).toEqual(['Pens, paper etc.', 'Then ink.']);
  });

  it('does not split before a lower-case word (an ellipsis or "!" inside a sentence)', () => {
    expect(splitSentences('He waited... and waited. Yahoo! is a name. Done.')).toEqual([
      'He waited... and waited.',
      'Yahoo! is a name.',
      'Done.',
    ]);
  });

  it('keeps closing quotes and brackets with their sentence', () => {
    expect(splitSentences('He said "Stop." (She did.) Then "Go!" followed.')).toEqual([
      'He said "Stop."',
      '(She did.)',
      'Then "Go!" followed.',
    ]);
  });

  it('does not split after a list number opening a sentence, but after a number ending one', () => {
    expect(splitSentences('1. Check the lamp. 2. Log the tide. It was 1990. Then war.')).toEqual([
      '1. Check the lamp.',
      '2. Log the tide.',
      'It was 1990.',
      'Then war.',
    ]);
  });

  it('splits Chinese and Japanese text at full-width stops without spaces', () => {
    expect(splitSentences('灯塔很高。海很深！你好吗？はい。')).toEqual([
      '灯塔很高。',
      '海很深！',
      '你好吗？',
      'はい。',
    ]);
  });

  it('joins lines wrapped mid-sentence, keeps short lines and bullets apart', () => {
    const page =
      'The keeper wrote in the log that the storm of the night had broken the\n' +
      'north window of the tower. Nobody was hurt.\n' +
      'Repairs\n' +
      '- glass for the window\n' +
      '- two new hinges\n\n' +
      'A new paragraph starts here';
    expect(splitSentences(page)).toEqual([
      'The keeper wrote in the log that the storm of the night had broken the north window of the tower.',
      'Nobody was hurt.',
      'Repairs',
      '- glass for the window',
      '- two new hinges',
      'A new paragraph starts here',
    ]);
  });

  it('cuts a run-on text longer than the cap at spaces, losing nothing', () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`);
    const parts = splitSentences(words.join(' '));
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(MAX_SENTENCE_CHARS);
    expect(parts.join(' ')).toBe(words.join(' '));
    expect(cutLong('a | b.  c | d')).toEqual(['a | b. c | d']);
  });

  it('returns nothing for blank text', () => {
    expect(splitSentences('  \n\n \n')).toEqual([]);
  });
});
