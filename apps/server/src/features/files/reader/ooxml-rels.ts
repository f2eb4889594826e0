import path from 'node:path/posix';
import type { SafeZip } from './safe-zip';
import { attr, parseXml } from './xml-stream';

export interface Relationship {
  /** The part the relationship points at, as a zip entry name. */
  target: string;
  /** The last segment of the relationship type (`officeDocument`, `worksheet`, `sharedStrings`). */
  kind: string;
}

/** The relationships of `part` (from its `_rels/<name>.rels`), by id; empty if it has none. */
export async function relationshipsOf(
  zip: SafeZip,
  part: string,
): Promise<Map<string, Relationship>> {
  const dir = path.dirname(part);
  const relsName = path.join(dir, '_rels', `${path.basename(part)}.rels`);
  const rels = new Map<string, Relationship>();
  const chunks = zip.open(relsName.replace(/^\.\//, ''));
  if (!chunks) return rels;
  await parseXml(chunks, {
    open(tag) {
      if (tag.local !== 'Relationship' || attr(tag, 'TargetMode') === 'External') return;
      const id = attr(tag, 'Id');
      const target = attr(tag, 'Target');
      if (!id || !target) return;
      const resolved = target.startsWith('/') ? target.slice(1) : path.join(dir, target);
      const kind = (attr(tag, 'Type') ?? '').split('/').pop() ?? '';
      rels.set(id, { target: path.normalize(resolved).replace(/^\.\//, ''), kind });
    },
  });
  return rels;
}

/** The main part of the package (`xl/workbook.xml`, `word/document.xml`), per `_rels/.rels`. */
export async function mainPart(zip: SafeZip, fallback: string): Promise<string> {
  for (const rel of (await relationshipsOf(zip, '')).values())
    if (rel.kind === 'officeDocument' && zip.zip.file(rel.target)) return rel.target;
  return fallback;
}
