import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  makeDocx,
  makePdf,
  makePptx,
  makeXlsx,
} from '../../../server/src/features/files/reader/test-fixtures';
import type { ProductServer } from './product-server';
import { visible } from './ui';

export interface Fixture {
  name: string;
  mimeType: string;
  buffer: Buffer;
  /** A text the preview shows (for pdf: the rendered page instead). */
  shows: string;
}

/** One document of each of the six allowed types, made by the libraries the server tests use. */
export async function sixFixtures(): Promise<Fixture[]> {
  return [
    {
      name: 'keeper.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('The lighthouse keeper lit the lamp at dusk.\nShips passed safely.\n'),
      shows: 'The lighthouse keeper lit the lamp at dusk.',
    },
    {
      name: 'logbook.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('date,ships\n2024-01-01,12\n2024-01-02,9\n'),
      shows: '2024-01-02',
    },
    {
      name: 'report.pdf',
      mimeType: 'application/pdf',
      buffer: await makePdf(['The keeper wrote a report about the storm.']),
      shows: 'Page 1',
    },
    {
      name: 'letter.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: await makeDocx(['Dear keeper,', 'The new lens arrives on Monday.']),
      shows: 'The new lens arrives on Monday.',
    },
    {
      name: 'supplies.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await makeXlsx({
        Stock: [
          ['item', 'count'],
          ['oil lamps', 4],
        ],
      }),
      shows: 'oil lamps',
    },
    {
      name: 'talk.pptx',
      mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      buffer: await makePptx([['Lighthouses of the North'], ['Keeping the light on']]),
      shows: 'Keeping the light on',
    },
  ];
}

/** Stores a file through the API (set-up for scenarios that are not about uploading). */
export async function uploadViaApi(
  server: ProductServer,
  accessToken: string,
  name: string,
  content: Buffer | string,
): Promise<void> {
  const body = new FormData();
  body.append(
    'file',
    new Blob([typeof content === 'string' ? content : new Uint8Array(content)]),
    name,
  );
  const res = await fetch(`${server.url}api/upload_file`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${accessToken}` },
    body,
  });
  expect(res.status, `upload ${name}: ${await res.clone().text()}`).toBeLessThan(300);
}

/** Opens the right-side file drawer from the account menu. */
export async function openMyFiles(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'My Files' }).click();
  const drawer = page.getByRole('dialog', { name: 'My Files' });
  await visible(drawer);
  await visible(drawer.getByRole('button', { name: 'Upload File' }));
  return drawer;
}

/** Opens My Files and the actions menu of `fileName` in it. */
export async function openFileMenu(page: Page, fileName: string) {
  const drawer = await openMyFiles(page);
  await drawer.getByRole('button', { name: `Actions for ${fileName}` }).click();
  const menu = page.getByRole('menu', { name: `Actions for ${fileName}` });
  await visible(menu);
  return menu;
}

/** Clicks an upload button and picks `file` in the file chooser it opens. */
export async function pickFile(button: Locator, file: Parameters<Locator['setInputFiles']>[0]) {
  const input = await chooserOpenedBy(button.page(), () => button.click());
  await input.setInputFiles(file);
  await input.evaluate((el, mark) => el.removeAttribute(mark), CHOOSER_MARK);
}

const CHOOSER_MARK = 'data-e2e-chooser';

/**
 * Runs `open` (a click or a key press) and returns the file input whose chooser it opened, once
 * Chromium has said so. Interception is switched on, and confirmed, before `open` runs:
 * Playwright's waitForEvent('filechooser') switches it on with a message it does not wait for,
 * and a press sent right after could reach Chromium first, so the chooser opened uncaught (the
 * keyboard test failed so without traces, which delay the press).
 */
export async function chooserOpenedBy(page: Page, open: () => Promise<unknown>): Promise<Locator> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Page.enable'); // its events reach this session only then
    await cdp.send('Page.setInterceptFileChooserDialog', { enabled: true });
    const opened = new Promise<number | undefined>((resolve) =>
      cdp.once('Page.fileChooserOpened', (e) => resolve(e.backendNodeId)),
    );
    await open();
    const backendNodeId = await opened;
    expect(backendNodeId, 'the chooser of a file input').toBeDefined();
    const { object } = await cdp.send('DOM.resolveNode', { backendNodeId });
    await cdp.send('Runtime.callFunctionOn', {
      objectId: object.objectId!,
      functionDeclaration: `function () { this.setAttribute('${CHOOSER_MARK}', ''); }`,
    });
    return page.locator(`[${CHOOSER_MARK}]`);
  } finally {
    await cdp.detach();
  }
}
