import { describe, expect, it } from 'vitest';
import { looksDoubtful, withoutSoftHyphens } from './text-quality';

describe("poppler's page text: clean, or read by pdf.js as before", () => {
  it('trusts a page of ordinary prose, in any script', () => {
    const english =
      'User acceptance of technology has been an important field of study for over two decades.';
    const german = 'Die Topologie ist ein Teilgebiet der Mathematik, das sich mit Räumen befasst.';
    const greek = 'Η τοπολογία είναι κλάδος των μαθηματικών που μελετά τους χώρους και τις μορφές.';
    for (const text of [english, german, greek]) expect(looksDoubtful(text), text).toBe(false);
  });

  it('doubts a page of hardly any text', () => {
    expect(looksDoubtful('')).toBe(true);
    expect(looksDoubtful('PDFM PDF EDITOR')).toBe(true);
  });

  it("doubts a broken font's characters (seen in poppler's reading of TAMReview.pdf)", () => {
    const garbage =
      'Technology Acceptance Model ȋͳͻͺ͸ȌǤ ͳͻͺͻ ȋ ǡ ͳͻͺͻȌǡ ͳ͹ʹ͹ the use of a system ' +
      'has been an important field of study for over two decades ȋͳͻͻ͵Ȍǡ and more.';
    expect(looksDoubtful(garbage)).toBe(true);
    expect(
      looksDoubtful('\u0012\u0003\u0017 \u0004 \u0010 words in a page of text'.repeat(3)),
    ).toBe(true);
  });

  it('doubts words spaced out letter by letter, or cut in fragments (rotated text)', () => {
    expect(looksDoubtful('n e t : h o s t a n d t h e n s o m e m o r e w o r d s h e r e')).toBe(
      true,
    );
    expect(
      looksDoubtful('Lo ad re no n au pl m ip lu gu ac is ci n ct e su ip us m el g do el lo r s'),
    ).toBe(true);
  });

  it("doubts accented letters read as Windows-1252 symbols (poppler's reading of issue2017r.pdf)", () => {
    const page =
      '%()+,-./0123456789:;\nABCDEFGHIJKLMNOPQRSTUVWYZ\nabcdefghijklmnopqrstuvwxyz\nˆ‰•Ž••”•™ŸÏÕ';
    expect(looksDoubtful(page)).toBe(true);
    // Set apart, or once in a long page, the same symbols are ordinary text.
    const list =
      '• Minutes of the March meeting\n• The contract, signed\n• The price sheet, 2 ‰ off';
    expect(looksDoubtful(list.repeat(3))).toBe(false);
    const brand = `Inkwell™ reads every file of the team. ${'The minutes of March are here. '.repeat(20)}`;
    expect(looksDoubtful(brand.repeat(3))).toBe(false);
  });
});

describe("soft hyphens in poppler's text", () => {
  it('leaves them out, and joins a word broken at one (issue13226.pdf)', () => {
    expect(withoutSoftHyphens('Mit\u00adarbei\u00adterinnen und Mitarbeiter')).toBe(
      'Mitarbeiterinnen und Mitarbeiter',
    );
    expect(withoutSoftHyphens('die Mitarbei\u00ad\nterinnen arbeiten\nin über 100 Ländern')).toBe(
      'die Mitarbeiterinnen arbeiten\nin über 100 Ländern',
    );
    // A visible hyphen stays: it may belong to the word.
    expect(withoutSoftHyphens('IEEE-\n754')).toBe('IEEE-\n754');
  });
});
