/**
 * Questions across all of a user's files (issue 35): the search index in the database, kept in
 * step with the files (indexer.ts), and POST /api/ask_files answered from it.
 */
export { default as knowledgePlugin } from './knowledge.plugin';
export { knowledgeRoutes } from './knowledge.routes';
export { registerAskFilesJob, type AskFilesJobInput } from './ask-files.job';
export { askFiles, findSources, checkAskable, passageBudget } from './ask-files.service';
export { knowledgeRepo } from './knowledge.repo';
export { SearchIndexer, NO_TEXT } from './indexer';
export { buildFilePassages } from './passages';
