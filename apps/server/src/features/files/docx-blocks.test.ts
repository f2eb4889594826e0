import {
  Document,
  HeadingLevel,
  LevelFormat,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
} from 'docx';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { docxBlocks } from './docx-blocks';

/** A Word document with what a preview must keep: headings, a numbered list, a table. */
async function structuredDocx(): Promise<Buffer> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const doc = new Document({
    numbering: {
      config: [
        {
          reference: 'steps',
          levels: [{ level: 0, format: LevelFormat.DECIMAL, text: '%1.' }],
        },
      ],
    },
    sections: [
      {
        children: [
          new Paragraph({ text: 'Harbour report', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('The keepers met on Monday.'),
          new Paragraph({ text: 'Steps', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: 'Paint the tower', numbering: { reference: 'steps', level: 0 } }),
          new Paragraph({ text: 'Fix the lamp', numbering: { reference: 'steps', level: 0 } }),
          new Table({
            rows: [
              new TableRow({ children: [cell('Item'), cell('Cost')] }),
              new TableRow({ children: [cell('Paint'), cell('40')] }),
            ],
          }),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

describe('docx preview blocks', () => {
  it('keeps headings, lists and tables', async () => {
    const blocks = await docxBlocks(await structuredDocx());
    expect(blocks).toEqual([
      { type: 'heading', level: 1, text: 'Harbour report' },
      { type: 'paragraph', text: 'The keepers met on Monday.' },
      { type: 'heading', level: 2, text: 'Steps' },
      {
        type: 'list',
        ordered: true,
        items: [
          { text: 'Paint the tower', depth: 0 },
          { text: 'Fix the lamp', depth: 0 },
        ],
      },
      {
        type: 'table',
        rows: [
          ['Item', 'Cost'],
          ['Paint', '40'],
        ],
      },
    ]);
  });

  it('reads a docx without loading jsdom (a second of loading, niced, on a first preview)', async () => {
    // In a process of its own: another test of this worker may have loaded jsdom already.
    const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-docx-'));
    try {
      const docx = path.join(dir, 'report.docx');
      writeFileSync(docx, await structuredDocx());
      const script = `
        import { readFileSync } from 'node:fs';
        import { createRequire } from 'node:module';
        const { docxBlocks } = await import(${JSON.stringify(pathToFileURL(path.resolve(import.meta.dirname, 'docx-blocks.ts')).href)});
        const blocks = await docxBlocks(readFileSync(${JSON.stringify(docx)}));
        const loaded = Object.keys(createRequire(import.meta.url).cache);
        console.log(JSON.stringify({ blocks: blocks.length, jsdom: loaded.some((m) => m.includes('/jsdom/')) }));`;
      const out = execFileSync(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        { cwd: import.meta.dirname, encoding: 'utf8' },
      );
      expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual({ blocks: 5, jsdom: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
