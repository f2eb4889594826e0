import type { ProofreadIssue } from '@inkwell/contract';
import { describe, expect, it } from 'vitest';
import { lintText } from './harper';
import { safeCorrections, typingSlips } from './safe-corrections';

/**
 * The corrected text against the real Harper, on text shaped like the slide deck of issue 40 (an
 * HBCU leadership summit): acronyms with and without a plural s, a person's name, a title in
 * capitals, a sentence in Spanish, and ordinary typing mistakes that must still be fixed.
 */
const DECK = [
  'Positioning HBCUs for the Future',
  'Michelle Asha Cooper, President, IHEP',
  'HIGHER EDUCTION LANDSCAPE',
  'The Institute for Higher Education Policy (IHEP) helps HBCUs recieve funding. IHEP works with every campus.',
  'IHEP helps HBCUs recieve grants.',
  "IHEP's reserch shows that HBCUs graduate many students. This is an test of the the checker.",
  'Asha said the report is due tomorow. La educación es la llave del futuro.',
  'We met Dr. Okonkwo at Howard Univeristy. Details are on github.com/ihep/hbcu-report.',
].join('\n');

/** The text back from the corrected one: every applied correction undone (what the web app does). */
function undoAll(corrected: string, issues: ProofreadIssue[]): string {
  let out = corrected;
  const applied = issues.filter((i) => i.correction !== undefined);
  let shift = applied.reduce((n, i) => n + i.correction!.length - i.length, 0);
  for (const i of [...applied].reverse()) {
    shift -= i.correction!.length - i.length;
    const at = i.offset + shift;
    out = out.slice(0, at) + i.original! + out.slice(at + i.correction!.length);
  }
  return out;
}

describe('safe corrections', () => {
  it('keeps acronyms, names, words in capitals and another language; fixes the typos', async () => {
    const { issues, corrected } = safeCorrections(DECK, await lintText(DECK, 'american'));
    const kept = (word: string) => issues.filter((i) => i.original === word).map((i) => i.kept);

    // Every word the issue saw broken is still there, as often as before.
    for (const word of ['HBCUs', 'IHEP', "IHEP's", 'Asha', 'EDUCTION', 'Okonkwo', 'Univeristy']) {
      expect(corrected.split(word).length, word).toBe(DECK.split(word).length);
    }
    expect(corrected).toContain('Michelle Asha Cooper, President, IHEP');
    expect(corrected).toContain('HIGHER EDUCTION LANDSCAPE');
    expect(corrected).toContain('La educación es la llave del futuro.');
    expect(corrected).toContain('github.com/ihep/hbcu-report');
    expect(kept('HBCUs')).toContain('acronym');
    expect(kept('IHEP')).toContain('acronym');
    expect(kept('EDUCTION')).toEqual(['all-caps']);
    expect(kept('Asha')).toContain('name');
    expect(kept('llave')).toEqual(['other-language']);

    // The ordinary mistakes are fixed, each listed with its correction.
    expect(corrected).toContain('helps HBCUs receive funding');
    // A short line full of acronyms is still English: its typo is fixed.
    expect(corrected).toContain('IHEP helps HBCUs receive grants.');
    expect(corrected).toContain("IHEP's research shows");
    expect(corrected).toContain('This is a test of the checker.');
    expect(corrected).toContain('due tomorrow.');
    const fixes = issues.filter((i) => i.correction !== undefined);
    expect(fixes.map((i) => [i.original, i.correction])).toEqual(
      expect.arrayContaining([
        ['recieve', 'receive'],
        ['reserch', 'research'],
        ['tomorow', 'tomorrow'],
      ]),
    );
    // Each finding is either corrected or kept with a reason, never both.
    for (const i of issues) expect(Number(i.correction !== undefined) + Number(!!i.kept)).toBe(1);
    // Undoing every correction gives the text back exactly.
    expect(undoAll(corrected, issues)).toBe(DECK);
  });

  it('keeps a word of the personal dictionary, whatever its case', async () => {
    const text = 'Run kubectl apply before the deploy. Kubectl talks to the cluster.';
    const plain = safeCorrections(text, await lintText(text, 'american'));
    expect(plain.issues.some((i) => i.original === 'kubectl')).toBe(true);
    const words = ['KubeCtl'];
    const mine = safeCorrections(text, await lintText(text, 'american', words), {
      dictionary: words,
    });
    expect(mine.corrected).toBe(text);
    expect(mine.issues.filter((i) => /kubectl/i.test(i.original ?? ''))).toEqual([]);
  });

  it('a text in another language keeps every word', async () => {
    const text = 'Bau dein eigenes Musikinstrument. Einführung in die Programmierung mit Sensoren.';
    const { issues, corrected } = safeCorrections(text, await lintText(text, 'american'));
    expect(issues.length).toBeGreaterThan(0);
    expect(corrected).toBe(text);
    expect(issues.some((i) => i.kept === 'other-language')).toBe(true);
    for (const i of issues) expect(['other-language', 'no-suggestion']).toContain(i.kept);
  });

  it('counts typing slips: a swap is one', () => {
    expect(typingSlips('teh', 'the')).toBe(1);
    expect(typingSlips('reserch', 'research')).toBe(1);
    expect(typingSlips('pymongo', 'pong')).toBe(3);
  });
});
