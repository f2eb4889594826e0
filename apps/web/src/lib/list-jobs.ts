import { jobListSchema, type Job } from '@inkwell/contract';
import { apiRequest } from './api-client';

/** GET /api/jobs: the user's jobs of the last 24 hours, newest first, with their results. */
export async function listJobs(): Promise<Job[]> {
  const { jobs } = await apiRequest('jobs', { schema: jobListSchema });
  return jobs;
}
