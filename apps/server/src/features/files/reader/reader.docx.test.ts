import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { extractText } from './index';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const MC = 'http://schemas.openxmlformats.org/markup-compatibility/2006';

/** A docx written by hand around `body`, with the given prefix for WordprocessingML. */
async function rawDocx(body: string, prefix = 'w'): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '_rels/.rels',
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0"?><${prefix}:document xmlns:${prefix}="${W}" xmlns:mc="${MC}"><${prefix}:body>${body.replace(/w:/g, `${prefix}:`)}</${prefix}:body></${prefix}:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

describe('docx read as a stream', () => {
  it('reads runs, tabs, breaks and tables, and leaves out what is not text', async () => {
    const bytes = await rawDocx(
      '<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr>' +
        '<w:r><w:t>Name</w:t></w:r><w:r><w:tab/><w:t xml:space="preserve">Ada </w:t></w:r>' +
        '<w:del><w:r><w:delText>removed</w:delText></w:r></w:del>' +
        '<w:r><w:instrText>PAGE</w:instrText></w:r><w:r><w:t>Lovelace</w:t></w:r></w:p>' +
        '<w:p><w:r><w:t>first line</w:t><w:br/><w:t>second line</w:t></w:r></w:p>' +
        '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell one</w:t></w:r></w:p></w:tc></w:tr></w:tbl>' +
        '<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:p><w:r><w:t>box</w:t></w:r></w:p></mc:Choice>' +
        '<mc:Fallback><w:p><w:r><w:t>box</w:t></w:r></w:p></mc:Fallback></mc:AlternateContent></w:r></w:p>',
    );
    const r = await extractText({ type: 'docx', bytes });
    expect(r.units.map((u) => u.text)).toEqual([
      'Name\tAda Lovelace',
      'first line',
      'second line',
      'cell one',
      'box',
    ]);
  });

  it('reads a document whose WordprocessingML has another prefix', async () => {
    const bytes = await rawDocx('<w:p><w:r><w:t>Prefixed text</w:t></w:r></w:p>', 'ns0');
    expect((await extractText({ type: 'docx', bytes })).text).toBe('Prefixed text');
  });

  it('caps paragraphs and says so', async () => {
    const bytes = await rawDocx('<w:p><w:r><w:t>p</w:t></w:r></w:p>'.repeat(50));
    const r = await extractText({ type: 'docx', bytes }, { maxRows: 10 });
    expect(r.units).toHaveLength(10);
    expect(r.truncated).toBe(true);
  });
});
