/**
 * The long work this browser started and has not shown the outcome of yet (document actions,
 * page analyses), kept in localStorage: after a reload its steps come back, follow the jobs to
 * their end and show their results as they would have been shown (resumeJobs in app/routes.tsx).
 * `action` and `about` are the starting feature's own record of what to show.
 */
export interface RememberedJob {
  id: string;
  /** Which feature started it: it shows it again. */
  feature: 'documents' | 'analysis';
  action: string;
  about: Record<string, string>;
}

const KEY = 'inkwellJobs';

export function rememberedJobs(): RememberedJob[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(value) ? (value as RememberedJob[]) : [];
  } catch {
    return [];
  }
}

function save(jobs: RememberedJob[]) {
  try {
    if (jobs.length) localStorage.setItem(KEY, JSON.stringify(jobs));
    else localStorage.removeItem(KEY);
  } catch {
    // Storage full or disabled: the job still runs, it just does not come back after a reload.
  }
}

export function rememberJob(job: RememberedJob) {
  save([...rememberedJobs().filter((j) => j.id !== job.id), job]);
}

export function forgetJob(id: string) {
  save(rememberedJobs().filter((j) => j.id !== id));
}

export function forgetAllJobs() {
  save([]);
}
