import { apiRequest } from './api-client';

/** DELETE /api/jobs/:id: the job's remaining model calls stop. Failures are only logged. */
export function cancelJob(id: string): void {
  void apiRequest(`jobs/${id}`, { method: 'DELETE' }).catch(() => undefined);
}
