export { registerDocumentJobs } from './documents.job';
export { documentsRoutes } from './documents.routes';
export { embedderFromConfig } from './retrieval/embeddings';
// Questions across all of a user's files: the search index and POST /api/ask_files.
export { knowledgePlugin, knowledgeRoutes, knowledgeRepo, registerAskFilesJob } from './knowledge';
