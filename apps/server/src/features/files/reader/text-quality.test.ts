import { describe, expect, it } from 'vitest';
import { cleanPopplerPage, looksDoubtful, withoutSoftHyphens } from './text-quality';

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

describe('pages poppler reads worse than pdf.js, seen in the real-world corpus', () => {
  it("doubts text cut in pieces on lines of their own (a chart's axis labels set at an angle, issue1905.pdf)", () => {
    const prose = 'LibreOffice downloads per week, from the project statistics of 2012.\n';
    const chart = `${prose}Jun\n18,\n2\n012\n4, 2\n01 2\nJu n\n21,\nMa\ny\nApr\nMa\ny7\n, 20\n`;
    expect(looksDoubtful(chart)).toBe(true);
    // A table of numbers, or one label of two letters, is no such thing.
    const table = `${prose.repeat(4)}${'450,000\n400,000\n350,000\n'.repeat(3)}OK\n`;
    expect(looksDoubtful(table)).toBe(false);
  });

  it("leaves a page of mathematics to poppler, though its formulas' indices stand on lines of their own", () => {
    const proof =
      'Sei x ∈ Ts S eine parametrisierte Kurve mit ε > 0, also gilt die Gleichung\n' +
      'γ\n0\nn\n(z1 − z4 )·(z3 − z2 ) = DV(z1 , z2 , z3 , z4 )\nb\nr\nab\n';
    expect(looksDoubtful(proof)).toBe(false);
  });

  it('doubts Mac Roman read as Latin-1 (issue1350.pdf: "beginnerÕs", "¥" for a bullet)', () => {
    const voucher =
      '¥ Limit 1 voucher per person; limit 3 vouchers as gifts.\n¥ Location must be selected at ' +
      'checkout.\n¥ Call ahead to schedule your beginnerÕs class. A class is not necessary.\n' +
      'Print voucher and bring to a merchant location listed on this voucher. '.repeat(20);
    expect(looksDoubtful(voucher)).toBe(true);
    // Yen before a price, and a capital after a capital, are ordinary text.
    const prices = '¥ 1,000 for the lunch set\n¥ 2,500 for the dinner\nÉCOLE and ÅSA\n'.repeat(5);
    expect(looksDoubtful(prices)).toBe(false);
  });
});

describe("accents on a dotless i or j in poppler's text", () => {
  it('sets them on the letter (tracemonkey.pdf: "naı̈ve" is found by "naïve")', () => {
    expect(cleanPopplerPage('  a na\u0131\u0308ve implementation\n')).toBe(
      'a naïve implementation',
    );
    expect(cleanPopplerPage('Ma\u0131\u0302tre')).toBe('Maître');
    // A dotless i without an accent is a letter of its own (Turkish).
    expect(cleanPopplerPage('kırmızı')).toBe('kırmızı');
  });
});
