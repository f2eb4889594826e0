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
});
