import { estimateTokens } from './apps/server/src/features/ai/token-estimate';
import { choosePassages } from './apps/server/src/features/documents/retrieval/choose-passages';
import { buildPassageIndex, neighboursOf, searchPassages } from './apps/server/src/features/documents/retrieval/passage-index';
import { loadXquad, XQUAD_LANGUAGES } from './bench/lib/xquad';
const budgets = [600, 1024, 1200];
for (const lang of XQUAD_LANGUAGES) {
  const d = loadXquad(lang);
  const t0 = performance.now();
  const idx = buildPassageIndex([{ kind: 'paragraph', label: 'Text', text: d.text }]);
  const build = performance.now() - t0;
  const line: string[] = [`${lang} (${idx.language}) passages=${idx.passages.length} build=${build.toFixed(0)}ms`];
  for (const b of budgets) {
    let hit = 0, toks = 0;
    for (const q of d.questions) {
      const ranked = searchPassages(idx, q.question, 64);
      const nb = ranked[0] ? neighboursOf(idx, ranked[0].index) : [];
      const chosen = choosePassages(ranked, nb, b, estimateTokens);
      if (chosen.some((c) => c.text.includes(q.answer))) hit++;
      toks += chosen.reduce((s, c) => s + estimateTokens(c.text), 0);
    }
    line.push(`@${b}: ${((100 * hit) / d.questions.length).toFixed(1)}% mean ${(toks / d.questions.length).toFixed(0)}t`);
  }
  console.log(line.join('  '));
}
