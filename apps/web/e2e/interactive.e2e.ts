import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureTinyGguf } from '../../server/src/features/ai/engine/llama/tiny-gguf';
import {
  startModelDownloadHost,
  type ModelDownloadHost,
} from '../../server/test/model-download-host';
import { startSlowModelServer, type SlowModelServer } from '../../server/test/slow-model-server';
import { expectNoAxeViolations } from './support/axe';
import { openMyFiles, uploadViaApi } from './support/files';
import { useScenario } from './support/scenario';
import { hidden, visible } from './support/ui';
import { openSignedIn, registerViaApi, newUser, signedInAsNewUser } from './support/users';

/**
 * Interactive first (issue 18) in the browser: Stop keeps the partial reply; long work shows a
 * progress bar that advances and a Cancel that stops it; a banner says why Send is disabled
 * while the model is not ready.
 */
const conversation = (s: { page: Page }) => s.page.getByRole('log', { name: 'Conversation' });

describe('Stop while a reply streams', () => {
  // Slow pieces: the reply is still arriving when Stop is pressed.
  const s = useScenario({ ai: { pieceDelayMs: 400 } });

  it('keeps the partial reply and gives Send back', async () => {
    const { page, server } = s;
    await signedInAsNewUser(page, server);
    await page.getByRole('textbox', { name: 'Message' }).fill('one two three four five six seven');
    await page.getByRole('button', { name: 'Send' }).click();
    const reply = conversation(s).getByRole('article').last();
    await visible(reply.getByText(/You said/));
    await page.getByRole('button', { name: 'Stop' }).click();
    await visible(reply.getByText('Stopped.'));
    const partial = await reply.textContent();
    expect(partial).not.toContain('seven');
    await visible(page.getByRole('button', { name: 'Send' }));
    // Nothing more arrives after Stop; the stopped reply is kept and counted, since its first
    // token was sent (issue 26), so it carries the counter.
    expect(await reply.textContent()).toBe(partial);
    expect(await reply.getByText(/\d+ of \d+/).count()).toBe(1);
  });
});

describe('progress and Cancel of a summary on a slow one-slot model', () => {
  let model: SlowModelServer;
  const s = useScenario({
    env: async () => {
      model = await startSlowModelServer({
        promptTokensPerSecond: 5_000,
        generatedTokensPerSecond: 100,
      });
      return { AI_BASE_URL: model.url };
    },
  });
  afterAll(() => model?.close());

  it('shows the part and the time left as the bar advances, and Cancel stops the work', async () => {
    const { page, server } = s;
    const user = newUser();
    const tokens = await registerViaApi(server, user);
    const text = Array.from(
      { length: 6000 },
      (_, i) => `Sentence ${i} of the keeper's long logbook.${i % 8 === 7 ? '\n\n' : ''}`,
    ).join(' ');
    await uploadViaApi(server, tokens.access_token, 'logbook.txt', text);
    await openSignedIn(page, server, tokens);
    const drawer = await openMyFiles(page);
    await drawer.getByRole('button', { name: 'Actions for logbook.txt' }).click();
    await page.getByRole('menuitem', { name: 'Summarize' }).click();

    const bar = page.getByRole('progressbar', {
      name: 'Progress of Starting Summarize for logbook.txt...',
    });
    await visible(bar);
    const step = conversation(s).getByRole('article').filter({ has: bar });
    await visible(
      step.getByText(/^Summarizing part 2 of \d+, about \d+( (s|min))?(-\d+ (s|min))? left$/),
      '',
      20_000,
    );
    await expectNoAxeViolations(page, 'a summary in progress');
    const first = Number(await bar.getAttribute('aria-valuenow'));
    await expect
      .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 20_000 })
      .toBeGreaterThan(first);

    await step.getByRole('button', { name: 'Cancel' }).click();
    await visible(conversation(s).getByText('Cancelled: Summarize for logbook.txt.'));
    await hidden(bar);
    // The server stopped the remaining calls: the model goes idle and no call starts after.
    const calls = model.calls.length;
    await model.idle();
    expect(model.calls.length).toBe(calls);
    expect(model.calls.filter((c) => !c.endedAt)).toEqual([]);
  });

  it('comes back after a reload: the step follows the same job to its result', async () => {
    const { page, server } = s;
    const user = newUser();
    const tokens = await registerViaApi(server, user);
    const text = Array.from(
      { length: 1500 },
      (_, i) => `Entry ${i} of the keeper's short logbook.${i % 8 === 7 ? '\n\n' : ''}`,
    ).join(' ');
    await uploadViaApi(server, tokens.access_token, 'short.txt', text);
    await openSignedIn(page, server, tokens);
    const drawer = await openMyFiles(page);
    await drawer.getByRole('button', { name: 'Actions for short.txt' }).click();
    const started = page.waitForResponse((r) => r.url().endsWith('/api/summarize'));
    await page.getByRole('menuitem', { name: 'Summarize' }).click();
    const jobId = (await started).headers()['x-job-id'];
    expect(jobId).toMatch(/\S/);
    const bar = page.getByRole('progressbar', {
      name: 'Progress of Starting Summarize for short.txt...',
    });
    await visible(bar);
    const callsBefore = model.calls.length;

    // The same job, not a new one: the page asks for its events.
    const followed = page.waitForRequest((r) => r.url().endsWith(`/api/jobs/${jobId}/events`));
    await page.reload();
    await visible(bar, 'the step again after the reload', 20_000);
    await followed;
    await visible(
      conversation(s).getByText('Summarize completed for short.txt.'),
      'the result of the job',
      60_000,
    );
    await hidden(bar);
    const summary = await conversation(s).getByRole('article').last().textContent();
    expect(summary?.trim()).toBeTruthy();
    // One job ran all along: its model calls carried on through the reload, none was redone.
    const done = await fetch(`${server.url}api/jobs/${jobId}`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(((await done.json()) as { state: string }).state).toBe('done');
    expect(model.calls.length).toBeGreaterThan(callsBefore);
  });
});

describe('the model status banner while the model downloads and loads', () => {
  let host: ModelDownloadHost;
  const s = useScenario({
    env: async () => {
      host = await startModelDownloadHost(readFileSync(ensureTinyGguf()));
      return { MODEL: host.url, MODEL_DOWNLOAD: 'auto' };
    },
  });
  afterAll(async () => {
    host?.finish();
    await host?.close();
  });

  it('says the download percentage with Send disabled, and goes away when the model is ready', async () => {
    const { page, server } = s;
    await signedInAsNewUser(page, server);
    const banner = page.getByRole('status').filter({ hasText: 'Downloading the language model:' });
    await visible(banner, 'download banner', 20_000);
    expect(await banner.textContent()).toMatch(/Downloading the language model: \d+ %/);
    await page.getByRole('textbox', { name: 'Message' }).fill('hello');
    const send = page.getByRole('button', { name: 'Send' });
    expect(await send.isDisabled()).toBe(true);
    expect(await send.getAttribute('aria-describedby')).toBe('model-status');
    await expectNoAxeViolations(page, 'chat while the model downloads');

    host.finish();
    await hidden(banner, 'download banner gone', 20_000);
    await hidden(page.getByRole('status').filter({ hasText: 'Loading the model' }), '', 30_000);
    expect(await send.isDisabled()).toBe(false);
  });
});
