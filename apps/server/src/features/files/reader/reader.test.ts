import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DocumentReadError, extractText } from './index';
import { makeDocx, makePdf, makePptx, makeXlsx, makeZipBomb } from './test-fixtures';

describe('extractText', () => {
  it('reads every pdf page in order', async () => {
    const r = await extractText({
      type: 'pdf',
      bytes: await makePdf(['Hello first page', 'Second page here']),
    });
    expect(r.units.map((u) => [u.kind, u.label])).toEqual([
      ['page', 'Page 1'],
      ['page', 'Page 2'],
    ]);
    expect(r.units[0]?.text).toContain('Hello first page');
    expect(r.text).toContain('Second page here');
    expect(r.truncated).toBe(false);
  });

  it('caps pdf pages and says so', async () => {
    const r = await extractText(
      { type: 'pdf', bytes: await makePdf(['a', 'b', 'c']) },
      { maxPages: 2 },
    );
    expect(r.units).toHaveLength(2);
    expect(r.truncated).toBe(true);
  });

  it('reads docx paragraphs', async () => {
    const r = await extractText({
      type: 'docx',
      bytes: await makeDocx(['Alpha paragraph', 'Beta paragraph']),
    });
    expect(r.units.map((u) => u.text)).toEqual(['Alpha paragraph', 'Beta paragraph']);
    expect(r.units[0]?.kind).toBe('paragraph');
  });

  it('reads each xlsx sheet as rows', async () => {
    const bytes = await makeXlsx({
      People: [
        ['name', 'age'],
        ['Ada', 36],
      ],
      Empty: [],
      Other: [['x']],
    });
    const r = await extractText({ type: 'xlsx', bytes });
    expect(r.units.map((u) => u.label)).toEqual(['People', 'Empty', 'Other']);
    expect(r.units[0]?.rows).toEqual([
      ['name', 'age'],
      ['Ada', '36'],
    ]);
    expect(r.text).toContain('Ada\t36');
  });

  it('reads pptx slides in presentation order', async () => {
    const bytes = await makePptx([['First slide'], ['Second slide', 'more & more']], [2, 1]);
    const r = await extractText({ type: 'pptx', bytes });
    expect(r.units.map((u) => u.text)).toEqual(['Second slide\nmore & more', 'First slide']);
    expect(r.units[0]?.label).toBe('Slide 1');
  });

  it('reads csv rows, quoted fields included, from a stream', async () => {
    const csv = 'name,quote\nAda,"Hello, world"\nBob,"multi\nline"\n';
    const r = await extractText({ type: 'csv', stream: Readable.from([Buffer.from(csv)]) });
    expect(r.units[0]?.rows).toEqual([
      ['name', 'quote'],
      ['Ada', 'Hello, world'],
      ['Bob', 'multi\nline'],
    ]);
  });

  it("passes a storage read error on as the server's, not as a damaged document", async () => {
    const failing = new Readable({
      read() {
        this.destroy(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' }));
      },
    });
    const err: unknown = await extractText({ type: 'csv', stream: failing }).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(DocumentReadError);
    expect((err as NodeJS.ErrnoException).code).toBe('EIO');
  });

  it('cuts off a stored-object read that stalls at the time limit', async () => {
    const stalled = new Readable({ read() {} }); // never sends a byte, never ends
    const err: unknown = await extractText(
      { type: 'csv', stream: stalled },
      { timeLimitMs: 100 },
    ).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(DocumentReadError);
    expect(stalled.destroyed).toBe(true);
  });

  it('caps csv rows', async () => {
    const csv = Array.from({ length: 50 }, (_, i) => `r${i},x`).join('\n');
    const r = await extractText({ type: 'csv', bytes: Buffer.from(csv) }, { maxRows: 10 });
    expect(r.units[0]?.rows).toHaveLength(10);
    expect(r.truncated).toBe(true);
  });

  it('decodes txt as UTF-8, UTF-16 with BOM and Latin-1', async () => {
    const utf8 = await extractText({ type: 'txt', bytes: Buffer.from('\ufeffCafé ünïcode ✓') });
    expect(utf8.text).toBe('Café ünïcode ✓');
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Grüße', 'utf16le')]);
    expect((await extractText({ type: 'txt', bytes: le })).text).toBe('Grüße');
    const be = Buffer.from(le);
    be.swap16();
    expect((await extractText({ type: 'txt', bytes: be })).text).toBe('Grüße');
    const latin1 = Buffer.from('Café', 'latin1');
    expect((await extractText({ type: 'txt', bytes: latin1 })).text).toBe('Café');
  });

  it('caps characters', async () => {
    const r = await extractText(
      { type: 'txt', bytes: Buffer.from('x'.repeat(100)) },
      { maxChars: 10 },
    );
    expect(r.text).toHaveLength(10);
    expect(r.truncated).toBe(true);
  });

  it('refuses a zip bomb, a corrupt pdf, a truncated docx and a non-zip cleanly', async () => {
    const bomb = await makeZipBomb(5 * 1024 * 1024);
    await expect(
      extractText({ type: 'docx', bytes: bomb }, { maxDecompressedBytes: 1024 * 1024 }),
    ).rejects.toThrow(/could not read this file: .*zip bomb/);
    const pdf = await makePdf(['x']);
    await expect(extractText({ type: 'pdf', bytes: pdf.subarray(0, 200) })).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/^could not read this file: /),
    });
    await expect(
      extractText({ type: 'pdf', bytes: Buffer.from('%PDF-1.7\ngarbage') }),
    ).rejects.toThrow(/^could not read this file/);
    const docx = await makeDocx(['x']);
    await expect(
      extractText({ type: 'docx', bytes: docx.subarray(0, docx.length / 2) }),
    ).rejects.toThrow(/^could not read this file/);
    await expect(extractText({ type: 'xlsx', bytes: Buffer.from('not a zip') })).rejects.toThrow(
      /^could not read this file/,
    );
    const ole = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    await expect(extractText({ type: 'docx', bytes: ole })).rejects.toThrow(/password-protected/);
  });

  it('gives up at the time limit instead of hanging', async () => {
    const bytes = await makeXlsx({ S: Array.from({ length: 3000 }, (_, i) => [i, 'row']) });
    await expect(extractText({ type: 'xlsx', bytes }, { timeLimitMs: 1 })).rejects.toThrow(
      /too long/,
    );
  });
});
