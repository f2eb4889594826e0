import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { OpenAIMessage } from '../../server/test/openai-test-server';
import { AI_MARK, productReply } from './support/ai';
import { openMyFiles, uploadViaApi } from './support/files';
import { newContext } from './support/browser';
import { useScenario } from './support/scenario';
import { hidden, visible } from './support/ui';
import { loginViaApi, openSignedIn, signedInAsNewUser, type Tokens } from './support/users';

/**
 * Issue 26, nothing a user did is lost: a stopped reply stays, marked stopped, after a reload;
 * a reply still being generated when the page reloads goes on and finishes on screen; a summary
 * whose tab closed and an answer about a file are there when the user comes back; another
 * browser signed in as the same user sees them all.
 */
const PIECES = 80;
/** Chat replies of PIECES words arriving one by one (the document prompts answer as usual). */
function slowReply(messages: OpenAIMessage[]): string | string[] {
  if (messages.some((m) => m.role === 'system' && !/Inkwell/.test(m.content))) {
    return productReply(messages);
  }
  return Array.from({ length: PIECES }, (_, i) => ` word${i}`);
}
const LAST_WORD = `word${PIECES - 1}`;

describe('nothing a user did is lost', () => {
  const s = useScenario({ ai: { pieceDelayMs: 80, reply: slowReply } });

  const conversation = () => s.page.getByRole('log', { name: 'Conversation' });
  const articles = () => conversation().getByRole('article');

  async function ask(text: string) {
    await s.page.getByRole('textbox', { name: 'Message' }).fill(text);
    await s.page.getByRole('button', { name: 'Send' }).click();
    // A few words have arrived.
    await visible(
      articles()
        .last()
        .getByText(/word3\b/),
      `the reply to "${text}" streams`,
    );
  }

  it('a stopped reply and a reply the page reloaded during are both kept, on another browser too', async () => {
    const { page, server } = s;
    const { user } = await signedInAsNewUser(page, server);

    // Stop mid-reply, then reload: the question and the partial answer, marked stopped.
    await ask('Please stop me halfway');
    await page.getByRole('button', { name: 'Stop' }).click();
    await visible(articles().last().getByText('Stopped.'));
    const stoppedText = await articles().last().textContent();
    await page.reload();
    await visible(conversation().getByText('Please stop me halfway'));
    await visible(articles().nth(1).getByText('Stopped.'), 'the stopped reply after the reload');
    expect(await articles().nth(1).textContent()).toContain('word3');
    expect(await articles().nth(1).textContent()).not.toContain(LAST_WORD);
    expect(stoppedText).toContain('Stopped.');

    // Reload mid-reply: the reply goes on on the server and finishes on screen.
    await ask('Keep going while I reload');
    await page.reload();
    await visible(conversation().getByText('Keep going while I reload'));
    await visible(articles().nth(3).getByText(new RegExp(LAST_WORD)), 'the reply finishes', 30_000);
    await visible(
      articles()
        .nth(3)
        .getByText(/2 of \d+/),
      'its counter',
    );
    expect(await articles().nth(3).getByText('Stopped.').count()).toBe(0);

    // Another browser signed in as the same user sees both.
    const login = await loginViaApi(server, user.email, user.password);
    const tokens = (await login.json()) as Tokens;
    const other = await newContext(s.browser);
    try {
      const second = await other.newPage();
      await openSignedIn(second, server, tokens);
      const log = second.getByRole('log', { name: 'Conversation' });
      await visible(log.getByText('Please stop me halfway'));
      await visible(log.getByRole('article').nth(1).getByText('Stopped.'));
      await visible(log.getByText('Keep going while I reload'));
      await visible(log.getByRole('article').nth(3).getByText(new RegExp(LAST_WORD)));
    } finally {
      await other.close();
    }
  });

  it('another browser opened mid-reply follows the reply as it streams', async () => {
    const { page, server } = s;
    const { user } = await signedInAsNewUser(page, server);
    await ask('Stream to both of my browsers');
    const login = await loginViaApi(server, user.email, user.password);
    const other = await newContext(s.browser);
    try {
      const second = await other.newPage();
      await openSignedIn(second, server, (await login.json()) as Tokens);
      const reply = second.getByRole('log', { name: 'Conversation' }).getByRole('article').nth(1);
      await visible(reply.getByText(/word\d/), 'the reply so far');
      await visible(reply.getByText(new RegExp(LAST_WORD)), 'the whole reply', 30_000);
      await visible(articles().nth(1).getByText(new RegExp(LAST_WORD)), 'the first browser too');
    } finally {
      await other.close();
    }
  });

  it('a summary whose tab was closed and an answer about a file come back, on another browser too', async () => {
    const { page, server, context } = s;
    const { user, tokens } = await signedInAsNewUser(page, server);
    await uploadViaApi(
      server,
      tokens.access_token,
      'keeper.txt',
      'The keeper lit the lamp. '.repeat(40),
    );
    await page.reload();
    const fileAction = async (on: Page, action: string) => {
      const drawer = await openMyFiles(on);
      await drawer.getByRole('button', { name: 'Actions for keeper.txt' }).click();
      await on
        .getByRole('menu', { name: 'Actions for keeper.txt' })
        .getByRole('menuitem', { name: action })
        .click();
      await hidden(drawer);
    };
    // The job is under way (the server answered with its id), then the tab closes.
    const started = page.waitForResponse((r) => r.url().endsWith('/api/summarize'));
    await fileAction(page, 'Summarize');
    expect((await started).headers()['x-job-id']).toMatch(/\S/);
    await page.close();

    const back = await context.newPage();
    await back.goto(server.url);
    const log = back.getByRole('log', { name: 'Conversation' });
    const summary = log.getByRole('article').filter({ hasText: AI_MARK.summary });
    await visible(summary, 'the summary', 30_000);
    await visible(log.getByText('Summarize completed for keeper.txt.'));

    // A question about the file is a job too: its answer is there after a reload.
    await fileAction(back, 'Ask Questions');
    await back.getByRole('textbox', { name: 'Message' }).fill('Who lit the lamp?');
    await back.getByRole('button', { name: 'Send' }).click();
    const answer = log.getByRole('article').filter({ hasText: AI_MARK.answer });
    await visible(answer, 'the answer', 30_000);
    await back.reload();
    await visible(answer, 'the answer after a reload');
    await visible(log.getByText('Who lit the lamp?'));

    // Another browser signed in as the same user sees both, in the order they were asked.
    const login = await loginViaApi(server, user.email, user.password);
    const other = await newContext(s.browser);
    try {
      const second = await other.newPage();
      await openSignedIn(second, server, (await login.json()) as Tokens);
      const theirs = second.getByRole('log', { name: 'Conversation' });
      await visible(theirs.getByRole('article').filter({ hasText: AI_MARK.answer }));
      const texts = await theirs.getByRole('article').allTextContents();
      const at = (text: string) => texts.findIndex((t) => t.includes(text));
      expect(at('Starting Summarize for keeper.txt...')).toBeGreaterThanOrEqual(0);
      expect(at(AI_MARK.summary)).toBeGreaterThan(at('Starting Summarize for keeper.txt...'));
      expect(at('Who lit the lamp?')).toBeGreaterThan(at(AI_MARK.summary));
      expect(at(AI_MARK.answer)).toBeGreaterThan(at('Who lit the lamp?'));
    } finally {
      await other.close();
    }
  });
});
