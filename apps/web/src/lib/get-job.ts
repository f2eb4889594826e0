import { jobSchema, type Job } from '@inkwell/contract';
import { apiRequest } from './api-client';

/** GET /api/jobs/:id: one job with its result (lists leave results out). */
export function getJob(id: string): Promise<Job> {
  return apiRequest(`jobs/${encodeURIComponent(id)}`, { schema: jobSchema });
}
