import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mammoth from 'mammoth';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { availableFonts } from './pdf-fonts';

/** The AI's answer exported as txt, docx and pdf opens and contains the text, in any script. */
const LATIN = 'Résumé of the meeting: déjà vu, naïve café.';
const ARABIC = 'مرحبا بالعالم';
const CJK = '你好，世界。こんにちは';
const TEXT = `${LATIN}\n${ARABIC}\n${CJK}`;

async function pdfText(bytes: Uint8Array) {
  const pdf = await getDocument({ data: bytes, useSystemFonts: false, isEvalSupported: false })
    .promise;
  let text = '';
  for (let p = 1; p <= pdf.numPages; p++) {
    const content = await (await pdf.getPage(p)).getTextContent();
    text += content.items.map((i) => ('str' in i ? i.str : '')).join(' ') + '\n';
  }
  const attachments = (await pdf.getAttachments()) as Record<
    string,
    { content: Uint8Array }
  > | null;
  await pdf.destroy();
  return { text, attachments };
}

const hasCjkFont = () =>
  availableFonts().some((f) => /CJK|wqy|Droid|fonts-(sc|jp|kr)/i.test(f.path));
const normalize = (s: string) => s.replace(/\s+/g, '');

describe('download-response', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    token = (await registerUser(server)).token;
  });
  afterAll(async () => server?.close());

  const download = (json: unknown) =>
    server.request('/api/download-response', { method: 'POST', token, json });

  it('txt: UTF-8 with the default file name', async () => {
    const res = await download({ text: TEXT, format: 'txt' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; charset=utf-8/);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="downloaded_file.txt"/,
    );
    expect((await res.text()).replace(/\r\n/g, '\n')).toBe(TEXT);
  });

  it('docx: opens with mammoth and contains every script', async () => {
    const res = await download({ text: TEXT, format: 'docx', file_name: 'answer' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/filename="answer.docx"/);
    const { value } = await mammoth.extractRawText({
      buffer: Buffer.from(await res.arrayBuffer()),
    });
    expect(value).toContain(LATIN);
    expect(value).toContain(ARABIC);
    expect(value).toContain(CJK);
  });

  it('pdf: opens with pdf.js; Latin and Arabic are readable text, CJK too when a font has it', async () => {
    const res = await download({ text: TEXT, format: 'pdf' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const { text, attachments } = await pdfText(new Uint8Array(await res.arrayBuffer()));
    expect(normalize(text)).toContain(normalize(LATIN));
    // pdf.js gives Arabic back in logical order; compare letters without joining forms.
    expect(normalize(text.normalize('NFKC'))).toContain(normalize(ARABIC));
    if (hasCjkFont()) {
      expect(normalize(text)).toContain(normalize(CJK));
    } else {
      // Without a CJK font the exact text still ships inside the PDF as an attachment.
      const att = attachments?.['response.txt'];
      expect(att).toBeDefined();
      expect(Buffer.from(att!.content).toString('utf8')).toBe(TEXT);
    }
  });

  it('refuses an unknown format with 400', async () => {
    const res = await download({ text: 'x', format: 'rtf' });
    expect(res.status).toBe(400);
  });
});
