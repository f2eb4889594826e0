// Generated documents for the documents bench: prose-like text (pseudo-words drawn with Zipf's
// law, capitalised sentences of 8–27 words, paragraphs of 2–6 sentences) under a short heading
// every 20 paragraphs, packed as a docx. Every body sentence names its section's subject
// (`Subject<n>X`), so a bench can see which sections reached the model; headings do not.
import JSZip from 'jszip';

export interface Prose {
  /** Paragraphs in order, headings included. */
  paragraphs: string[];
  sections: number;
  chars: number;
}

const PARAGRAPHS_PER_SECTION = 20;

export function makeProse(targetChars: number, seed = 42): Prose {
  let x = seed;
  const rnd = () => ((x = (x * 1103515245 + 12345) % 2 ** 31), x / 2 ** 31);
  const syl = ['ka', 'lo', 'mi', 'ter', 'on', 'sa', 'vel', 'ri', 'du', 'pen', 'ax', 'or', 'ly'];
  const vocab = Array.from({ length: 8000 }, () =>
    Array.from(
      { length: 1 + Math.floor(rnd() * 4) },
      () => syl[Math.floor(rnd() * syl.length)],
    ).join(''),
  );
  // Zipf: the k-th word is drawn with probability ∝ 1 / (k + 1), as in natural text.
  const cdf: number[] = [];
  let total = 0;
  for (let k = 0; k < vocab.length; k++) cdf.push((total += 1 / (k + 1)));
  const word = () => {
    const r = rnd() * total;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    return vocab[lo]!;
  };
  const paragraphs: string[] = [];
  let chars = 0;
  let sections = 0;
  while (chars < targetChars) {
    if (paragraphs.length % (PARAGRAPHS_PER_SECTION + 1) === 0) {
      sections += 1;
      paragraphs.push(`Chapter ${sections} ${word()} ${word()}`);
      continue;
    }
    const sentences = Array.from({ length: 2 + Math.floor(rnd() * 5) }, () => {
      const words = Array.from({ length: 7 + Math.floor(rnd() * 20) }, word);
      words.splice(Math.floor(rnd() * words.length), 0, `Subject${sections}X`);
      const first = words[0]!;
      words[0] = first[0]!.toUpperCase() + first.slice(1);
      return `${words.join(' ')}.`;
    });
    const p = sentences.join(' ');
    paragraphs.push(p);
    chars += p.length + 2;
  }
  return { paragraphs, sections, chars };
}

/** Sections whose subject appears in the texts (what the model read). */
export function sectionsIn(texts: string[]): Set<number> {
  const seen = new Set<number>();
  for (const t of texts) for (const m of t.matchAll(/\bSubject(\d+)X\b/g)) seen.add(Number(m[1]));
  return seen;
}

export async function proseDocx(paragraphs: string[]): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  const body = paragraphs
    .map((p) => `<w:p><w:r><w:t xml:space="preserve">${p}</w:t></w:r></w:p>`)
    .join('');
  zip.file(
    'word/document.xml',
    `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}
