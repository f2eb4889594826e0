/**
 * What the work does now, in words a person reads as the heading of its card: "Summarizing part
 * 4 of 28", "Waiting to start part 2 of 6", "Reading the file". Stages are the services' words
 * (summarize.service.ts, site-analysis.service.ts, …); one not listed here reads as itself.
 */
const ACTIVITIES: Record<string, string> = {
  queued: 'Waiting for its turn',
  starting: 'Starting',
  reading: 'Reading the file',
  summarizing: 'Summarizing',
  combining: 'Combining the summaries',
  translating: 'Translating',
  scoring: 'Scoring the rows',
  'writing overview': 'Writing the overview',
  checking: 'Checking',
  'writing notes': 'Writing the notes',
  fetching: 'Fetching the page',
  crawling: 'Reading the site',
  auditing: 'Auditing the pages',
  'writing insights': 'Writing the insights',
  'finding passages': 'Finding the passages',
  answering: 'Answering',
};

export function workHeading(stage: string, done: number, total: number, waiting: boolean): string {
  const activity = ACTIVITIES[stage] ?? stage.charAt(0).toUpperCase() + stage.slice(1);
  if (total <= 0 || done >= total) return activity;
  const part = `part ${done + 1} of ${total}`;
  return waiting
    ? `${activity}: waiting to start ${part}`
    : `${activity} part ${done + 1} of ${total}`;
}
