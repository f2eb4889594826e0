import { describe, expect, it } from 'vitest';
import { MODEL_UNAVAILABLE_MESSAGE } from '@inkwell/contract';
import { useScenario } from './support/scenario';
import { visible } from './support/ui';
import { signedInAsNewUser } from './support/users';

describe('a model server that goes down', () => {
  const s = useScenario({ ai: {} });

  it('answers the question at once with the reason in the chat, and the banner says so', async () => {
    await signedInAsNewUser(s.page, s.server);
    const box = s.page.getByRole('textbox', { name: 'Message' });
    await box.fill('hello model');
    await box.press('Enter');
    const log = s.page.getByRole('log', { name: 'Conversation' });
    await visible(log.getByText('You said: hello model'));

    await s.ai.stop();
    await box.fill('are you still there?');
    await box.press('Enter');
    await visible(log.getByText('are you still there?'));
    await visible(log.getByText(MODEL_UNAVAILABLE_MESSAGE));
    expect(await log.getByText('Loading...').count()).toBe(0);
    // The banner above the input follows (the status is asked again after the failure).
    await visible(s.page.getByRole('status').filter({ hasText: MODEL_UNAVAILABLE_MESSAGE }));

    await s.ai.restart();
    await expect
      .poll(
        () => s.page.getByRole('status').filter({ hasText: MODEL_UNAVAILABLE_MESSAGE }).count(),
        {
          timeout: 45_000,
        },
      )
      .toBe(0);
  }, 90_000);
});
