import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockFetch, renderWithProviders, signIn } from '../../../test/utils';
import { DownloadResponseButton } from './DownloadResponseButton';

/** The names the browser was asked to save files under (the `download` of the clicked link). */
let saved: string[] = [];

beforeEach(() => {
  saved = [];
  // jsdom has no object URLs; the link click is where the browser would save the file.
  Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: () => 'blob:reply' });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push(this.download);
  });
});

afterEach(() => {
  delete (URL as { createObjectURL?: unknown }).createObjectURL;
  delete (URL as { revokeObjectURL?: unknown }).revokeObjectURL;
});

async function download(name: string, format?: string) {
  signIn('Ada');
  const fetchMock = mockFetch((req) =>
    req.path === 'download-response' ? new Response(new Blob(['bytes'])) : undefined,
  );
  const user = userEvent.setup();
  renderWithProviders(<DownloadResponseButton text="The reply" />);
  await user.click(screen.getByRole('button', { name: 'Download reply' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Download File' }));
  const field = dialog.getByRole('textbox', { name: 'File name' });
  expect(field).toHaveValue('');
  if (name) await user.type(field, name);
  if (format) await user.click(dialog.getByRole('radio', { name: format }));
  await user.click(dialog.getByRole('button', { name: 'Download' }));
  await waitFor(() => expect(saved).toHaveLength(1));
  return { fetchMock };
}

describe("Download File dialog (spec §5: an empty name is 'downloaded_file.{format}')", () => {
  it.each(['txt', 'pdf', 'docx'])('an empty name saves as downloaded_file.%s', async (format) => {
    const { fetchMock } = await download('', format);
    expect(saved).toEqual([`downloaded_file.${format}`]);
    expect(callsTo(fetchMock, 'download-response')[0]![1]!.body).toBe(
      JSON.stringify({ text: 'The reply', format }),
    );
  });

  it('a blank name counts as empty; txt is the default format', async () => {
    await download('   ');
    expect(saved).toEqual(['downloaded_file.txt']);
  });

  it('a given name gets the chosen extension', async () => {
    await download('minutes', 'docx');
    expect(saved).toEqual(['minutes.docx']);
  });
});
