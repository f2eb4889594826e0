import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreviewResponse } from '@inkwell/contract';
import { loadSettings } from '../../config';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { makeScannedPdf } from './reader/scan-fixtures';
import { uploadOk } from './test-helpers';

describe('a scanned pdf over HTTP (OCR)', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer();
    token = (await registerUser(server)).token;
  });
  afterAll(() => server.close());

  it('previews as text page by page with the OCR page marked, and still as bytes by default', async () => {
    const bytes = await makeScannedPdf(['A typed cover page', ['HELLO WORLD', 'OLD PAPER']]);
    const file = await uploadOk(server, token, 'Scan.pdf', bytes);

    const raw = await server.request(`/api/preview_file/${file.id}`, { token });
    expect(raw.headers.get('content-type')).toBe('application/pdf');
    await raw.arrayBuffer();

    const res = await server.request(`/api/preview_file/${file.id}?format=text`, { token });
    expect(res.status).toBe(200);
    const body = (await res.json()) as PreviewResponse;
    expect(body.kind).toBe('pages');
    if (body.kind !== 'pages') return;
    expect(body.pages.map((p) => [p.label, p.ocr])).toEqual([
      ['Page 1', false],
      ['Page 2', true],
    ]);
    expect(body.pages[1]?.text).toMatch(/HELLO\s+WORLD\s+OLD\s+PAPER/);
    expect(body.text).toContain('A typed cover page');
  });

  it('refuses an OCR language that is not installed at start-up, naming the setting', () => {
    expect(() => loadSettings({ OCR_LANGUAGES: 'eng,xyz' })).toThrow(
      /OCR_LANGUAGES: .*"xyz" is not/,
    );
    expect(loadSettings({ OCR_LANGUAGES: 'ENG' }).OCR_LANGUAGES).toEqual(['eng']);
    expect(loadSettings({}).OCR_LANGUAGES).toEqual(['eng']);
    expect(loadSettings({ OCR: 'off' }).OCR).toBe('off');
  });
});
