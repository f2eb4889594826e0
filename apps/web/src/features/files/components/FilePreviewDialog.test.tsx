import { screen, within } from '@testing-library/react';
import type { FileItem } from '@inkwell/contract';
import { describe, expect, it } from 'vitest';
import { API_MESSAGES } from '../../../lib/api-messages';
import { callsTo, json, mockFetch, renderWithProviders, signIn } from '../../../test/utils';
import { FilePreviewDialog } from './FilePreviewDialog';

const NOTES: FileItem = { id: 8, file_name: 'notes.txt', type: 'txt', size: 10, created_at: '' };

function open(answer: () => Response | Promise<Response>, file: FileItem = NOTES) {
  signIn('Ada');
  const fetchMock = mockFetch((req) =>
    req.path === `preview_file/${file.id}` ? answer() : undefined,
  );
  renderWithProviders(<FilePreviewDialog file={file} onClose={() => undefined} />);
  return { fetchMock, dialog: within(screen.getByRole('dialog', { name: file.file_name })) };
}

describe('file preview errors', () => {
  it.each([
    ['a 415', () => json(415, { error: 'Unsupported Media Type' })],
    ["the server's 'Unsupported file type'", () => json(400, { error: 'Unsupported file type' })],
  ])("says 'Unsupported file type' for %s", async (_name, answer) => {
    const { dialog } = open(answer);
    expect(await dialog.findByRole('alert')).toHaveTextContent(/^Unsupported file type$/);
  });

  it("says 'Unsupported file type' for a type it cannot preview, without asking the server", async () => {
    const odd = { ...NOTES, id: 9, file_name: 'a.odt', type: 'odt' } as unknown as FileItem;
    const { dialog, fetchMock } = open(() => json(200, {}), odd);
    expect(dialog.getByText('Unsupported file type')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'preview_file/9')).toHaveLength(0);
  });

  it('no network response: the connection message of spec §8, not a file type problem', async () => {
    const { dialog } = open(() => Promise.reject(new TypeError('Failed to fetch')));
    const alert = await dialog.findByRole('alert');
    expect(alert).toHaveTextContent(API_MESSAGES.network);
    expect(dialog.queryByText('Unsupported file type')).toBeNull();
  });

  it("other failures: the spec's general message with the server's error under it", async () => {
    const { dialog } = open(() => json(404, { error: 'File not found' }));
    const alert = within(await dialog.findByRole('alert'));
    expect(alert.getByText('An error occurred. Please try again.')).toBeInTheDocument();
    expect(alert.getByText('File not found')).toBeInTheDocument();
    expect(dialog.queryByText('Unsupported file type')).toBeNull();
  });

  it('a rate-limited preview says so', async () => {
    const { dialog } = open(() => json(429, { error: API_MESSAGES.rateLimited }));
    const alert = await dialog.findByRole('alert');
    expect(alert).toHaveTextContent(/^Rate limit exceeded\. Please wait before retrying\.$/);
  });
});

describe('a pdf shown as its text', () => {
  it('asks for ?format=text and marks the pages read by OCR', async () => {
    const scan: FileItem = { id: 10, file_name: 'scan.pdf', type: 'pdf', size: 10, created_at: '' };
    let calls = 0;
    const { dialog, fetchMock } = open(
      () =>
        // First the pdf itself, then its text (the mock sees the path without the query).
        ++calls === 1
          ? new Response(new Uint8Array([37, 80, 68, 70]), {
              headers: { 'Content-Type': 'application/pdf' },
            })
          : json(200, {
              kind: 'pages',
              type: 'pdf',
              text: 'Typed words\n\nScanned words',
              pages: [
                { label: 'Page 1', text: 'Typed words', ocr: false },
                { label: 'Page 2', text: 'Scanned words', ocr: true },
              ],
              truncated: false,
            }),
      scan,
    );
    const show = await dialog.findByRole('button', { name: 'Show text' });
    show.click();
    expect(
      await dialog.findByText('Page 2 (read by OCR from the scanned image)'),
    ).toBeInTheDocument();
    expect(dialog.getByText('Page 1')).toBeInTheDocument();
    expect(dialog.getByText('Scanned words')).toBeInTheDocument();
    expect(show).toHaveAttribute('aria-pressed', 'true');
    expect(callsTo(fetchMock, 'preview_file/10?format=text')).toHaveLength(1);
  });
});
