// Real slide decks and reports for the proofreading bench. Not committed (their authors gave no
// licence): bring each file from its public repository into PROOFREAD_CORPUS (default
// /tmp/proofread-corpus) under the name given, e.g.
//   git --git-dir=<snapshot of owner/name> show <commit>:<path> > /tmp/proofread-corpus/<file>
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { extractText } from '../../apps/server/src/features/files/reader';

export interface CorpusSource {
  file: string;
  repo: string;
  commit: string;
  path: string;
  /** The people the document names (read by hand): the corrected text must keep every one. */
  names?: string[];
}

export const PROOFREAD_CORPUS: CorpusSource[] = [
  {
    file: 'lsass-talk.pptx',
    repo: '0x00Jeff/Hot-malware-near-your-lsass-talk-slides',
    commit: 'c8f1a567010b8fc913f9551c455da0e0df9e9cf6',
    path: 'slides.pptx',
  },
  {
    file: 'eurovision-report.docx',
    names: ['Adam El Bahey', 'Srikar Pisupati', 'Anirudh Venkatraman'],
    repo: '408adamelb/cs498-eurovision',
    commit: '23695839bf76799c4032aa9ac7135547a7d89463',
    path: 'report.docx',
  },
  {
    file: 'eurovision-deck.pptx',
    names: ['Adam El Bahey', 'Srikar Pisupati', 'Anirudh Venkatraman'],
    repo: '408adamelb/cs498-eurovision',
    commit: '23695839bf76799c4032aa9ac7135547a7d89463',
    path: 'deck.pptx',
  },
  {
    file: 'alberta-opioids.pptx',
    names: ['Adilbek Sultanov'],
    repo: 'Adilbek123/alberta-substance-use-trends',
    commit: '0a2df819f543bfe593462db4f3b77ff97f037f15',
    path: 'slides.pptx',
  },
  {
    file: 'docker-talk.pptx',
    repo: 'AndrewSwerlick/docker-talk',
    commit: '01ea89ec6f948d04c116c43dd6fe18083adef8ad',
    path: 'slides.pptx',
  },
  {
    file: 'docker-workshop.pptx',
    names: ['Menno Liefstingh'],
    repo: 'BigDataRepublic/docker-workshop',
    commit: '326d65fc665fa85ff12b0f12260f1eb31a93e0db',
    path: 'slides.pptx',
  },
  {
    file: 'aspconf2012.pptx',
    names: ['Damian Edwards'],
    repo: 'DamianEdwards/aspConf2012',
    commit: '8aab65949f210c1197ca9d07be90069723690601',
    path: 'slides.pptx',
  },
  {
    file: 'power-platform-devops.pptx',
    repo: 'DynamicsValue/power-platform-devops-saturday',
    commit: 'e142e865d93f021a8bf54223205481e6f9ed59d5',
    path: 'slides.pptx',
  },
  {
    file: 'quarto-revealjs.pptx',
    names: ['Emil Hvitfeldt'],
    repo: 'EmilHvitfeldt/quarto-revealjs-pptx',
    commit: '443f1f8f034469d60d174fa428624a8abfa9c411',
    path: 'slides.pptx',
  },
  {
    file: 'bits-and-beats.pptx',
    names: ['Jesse Josua Benjamin', 'Nicolo Knapp', 'Tim Korjakow'],
    repo: 'FUB-HCC/Bits-and-Beats-Workshop',
    commit: 'b9b0d8a11babaaecc1fcdd620bd223e84f6a9064',
    path: 'slides.pptx',
  },
];

export const corpusDir = () => process.env.PROOFREAD_CORPUS ?? '/tmp/proofread-corpus';

export interface CorpusDoc {
  name: string;
  /** The people it names. */
  people: string[];
  text: string;
  /** One text per slide (pptx) or paragraph (docx), as the reader cuts it. */
  units: string[];
}

/** The corpus documents found in corpusDir(), read by the product's reader. */
export async function loadCorpus(): Promise<CorpusDoc[]> {
  const docs: CorpusDoc[] = [];
  for (const s of PROOFREAD_CORPUS) {
    const file = path.join(corpusDir(), s.file);
    if (!existsSync(file)) continue;
    const type = s.file.endsWith('.pptx') ? 'pptx' : 'docx';
    const r = await extractText({ type, bytes: readFileSync(file) });
    docs.push({
      name: s.file,
      people: s.names ?? [],
      text: r.text,
      units: r.units.map((u) => u.text),
    });
  }
  return docs;
}

/** A deterministic generator (the same typos on every run). */
export function seeded(seed: number) {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2 ** 31), x / 2 ** 31);
}

const NEIGHBOURS: Record<string, string> = {
  a: 'qs', b: 'vn', c: 'xv', d: 'sf', e: 'wr', f: 'dg', g: 'fh', h: 'gj', i: 'uo', j: 'hk',
  k: 'jl', l: 'k', m: 'n', n: 'bm', o: 'ip', p: 'o', q: 'w', r: 'et', s: 'ad', t: 'ry',
  u: 'yi', v: 'cb', w: 'qe', x: 'zc', y: 'tu', z: 'x',
}; // prettier-ignore

/**
 * One typing mistake in a word, as people make them: two letters swapped, one dropped, one
 * doubled, or one replaced by a neighbour on the keyboard. The first letter is left alone.
 */
export function typo(word: string, rnd: () => number): string {
  const i = 1 + Math.floor(rnd() * (word.length - 2));
  const kind = Math.floor(rnd() * 4);
  const c = word[i]!;
  switch (kind) {
    case 0:
      return word.slice(0, i) + word[i + 1]! + c + word.slice(i + 2);
    case 1:
      return word.slice(0, i) + word.slice(i + 1);
    case 2:
      return word.slice(0, i) + c + word.slice(i);
    default: {
      const n = NEIGHBOURS[c] ?? 'e';
      return word.slice(0, i) + n[Math.floor(rnd() * n.length)]! + word.slice(i + 1);
    }
  }
}
