import { jobListSchema, type JobList, type JobSummary } from '@inkwell/contract';
import { apiRequest } from './api-client';

/** GET /api/jobs: one page of the user's jobs of the last 24 hours, newest first, without results. */
export function getJobPage(cursor?: string): Promise<JobList> {
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
  return apiRequest(`jobs${query}`, { schema: jobListSchema });
}

/**
 * The user's jobs created since `since` (ms), newest first: `first` (the first page, asked early)
 * and the pages after it, asked only while they can still hold such a job.
 */
export async function listJobsSince(first: Promise<JobList>, since: number): Promise<JobSummary[]> {
  const jobs: JobSummary[] = [];
  for (let page = await first; ; page = await getJobPage(page.next_cursor!)) {
    jobs.push(...page.jobs.filter((j) => Date.parse(j.created_at) >= since));
    const oldest = page.jobs.at(-1);
    if (!page.next_cursor || !oldest || Date.parse(oldest.created_at) < since) return jobs;
  }
}
