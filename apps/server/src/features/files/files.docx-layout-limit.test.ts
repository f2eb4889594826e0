import JSZip from 'jszip';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-app';
import { cpuPool } from '../../workers/cpu-pool';
import { docxBlocks } from './docx-blocks';
import { declaredXmlBytes, DOCX_LAYOUT_MAX_XML_BYTES } from './docx-xml-size';
import { declareSize, makeDocx } from './reader/test-fixtures';
import { registerWithId, uploadOk } from './test-helpers';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** A minimal Word document whose body is `body` (WordprocessingML), deflated. */
async function wordDocx(body: string): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0"?><Relationships xmlns="${R}"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0"?><w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

const paragraph = (text: string) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`;
/** A few KB of file, megabytes of empty paragraphs: mammoth took 64 s and 1.1 GB for 5 MB. */
const emptyParagraphs = (bytes: number) =>
  paragraph('Harbour report') + '<w:p/>'.repeat(Math.ceil(bytes / 6));

/**
 * A docx's preview lays out its headings, lists and tables in the CPU pool (mammoth): a small
 * file with megabytes of XML, or one too long for the reader, previews as its text instead,
 * without asking the pool; a layout that does run stops when the client leaves.
 */
describe('docx preview layout limits', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    token = (await registerWithId(server)).token;
  });
  afterAll(() => server?.close());
  afterEach(() => vi.restoreAllMocks());

  /** The preview of a docx, and the layout tasks the CPU pool was asked for meanwhile. */
  async function preview(bytes: Buffer) {
    const file = await uploadOk(server, token, 'report.docx', bytes);
    const run = vi.spyOn(cpuPool(), 'run');
    const res = await server.request(`/api/preview_file/${file.id}`, { token });
    const layouts = run.mock.calls.filter(([task]) => task === 'docxBlocks');
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, layouts };
  }

  it('megabytes of empty paragraphs in a small file: its text, no layout', async () => {
    const bomb = await wordDocx(emptyParagraphs(DOCX_LAYOUT_MAX_XML_BYTES + 512 * 1024));
    expect(bomb.length).toBeLessThan(50_000);
    const { status, body, layouts } = await preview(bomb);
    expect(status).toBe(200);
    expect(body).toMatchObject({ kind: 'text', type: 'docx', text: 'Harbour report' });
    expect(body.blocks).toBeUndefined();
    expect(layouts).toEqual([]);
  });

  it('more paragraphs than the reader reads (its text cut short): its text, no layout', async () => {
    const long = await wordDocx(paragraph('x').repeat(20_001));
    const { status, body, layouts } = await preview(long);
    expect(status).toBe(200);
    expect(body).toMatchObject({ kind: 'text', type: 'docx', truncated: true });
    expect(body.blocks).toBeUndefined();
    expect(layouts).toEqual([]);
  });

  it("an ordinary docx is laid out, with the request's signal to stop it", async () => {
    const { status, body, layouts } = await preview(await makeDocx(['Harbour report']));
    expect(status).toBe(200);
    expect(body.blocks).toEqual([{ type: 'paragraph', text: 'Harbour report' }]);
    expect(layouts).toHaveLength(1);
    expect(layouts[0]![2]?.signal).toBeInstanceOf(AbortSignal);
  });
});

describe('docx layout size check', () => {
  it('a zip that declares small sizes is measured as it inflates, and not laid out', async () => {
    const bytes = DOCX_LAYOUT_MAX_XML_BYTES + 512 * 1024;
    const honest = await wordDocx(emptyParagraphs(bytes));
    const inflated = declaredXmlBytes(honest)!;
    expect(inflated).toBeGreaterThan(DOCX_LAYOUT_MAX_XML_BYTES);
    const liar = declareSize(honest, 'word/document.xml', 1000);
    expect(declaredXmlBytes(liar)).toBeLessThan(DOCX_LAYOUT_MAX_XML_BYTES);
    expect(await docxBlocks(liar)).toBeUndefined();
  });
});
