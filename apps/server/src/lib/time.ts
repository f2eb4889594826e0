/** ISO-8601 UTC timestamps, the one time format of the database. */
export const nowIso = () => new Date().toISOString();
export const isoIn = (ms: number) => new Date(Date.now() + ms).toISOString();
/** The timestamp of an epoch time in milliseconds (Date.now() and sums of it). */
export const isoAt = (ms: number) => new Date(ms).toISOString();
export const utcDay = (d = new Date()) => d.toISOString().slice(0, 10);
