export { allowedExtension, contentDisposition } from './file-names';
export { PENDING_PREFIX } from './files.repo';
export { filesRoutes } from './files.routes';
export {
  type FilesDeps,
  findOwnedFile,
  getFileText,
  isReadAgainInBackground,
} from './files.service';
export { sweepOrphans } from './files.sweep';
export {
  configureReader,
  type ExtractResult,
  extractText,
  READER_VERSION,
  type TextUnit,
  warmReader,
} from './reader';
export { UPLOAD_LEASE } from './upload-lease';
export { whileFileExists } from './file-reads';
export { filesAccountCleanup } from './files-account-cleanup';
