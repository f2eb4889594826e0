/**
 * What one feature removes when an account is deleted. Each feature says it in its own words and
 * code; the list of them is composed in one place (src/account-cleanup.ts), so the users feature
 * deletes an account without knowing the features that keep things for it.
 */
export interface AccountCleanup {
  feature: string;
  /** What it removes, in words. */
  removes: string;
  /**
   * `before-rows`: while the account's rows still say what is its (a job's objects are found by
   * the job's row); `after-rows`: once the rows have gone (cascade), so nothing new appears.
   */
  when: 'before-rows' | 'after-rows';
  run(userId: number): Promise<void>;
}

/** Runs the steps of one phase in the order they were listed. */
export async function runAccountCleanup(
  steps: readonly AccountCleanup[],
  when: AccountCleanup['when'],
  userId: number,
) {
  for (const step of steps) if (step.when === when) await step.run(userId);
}
