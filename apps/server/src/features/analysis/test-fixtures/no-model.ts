import { UnavailableModel } from '../../ai';

/** A language model that is never available, for service tests that only look at the audits. */
export const noModel = new UnavailableModel('set AI_BASE_URL');
