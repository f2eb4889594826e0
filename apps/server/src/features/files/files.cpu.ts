import { parseCachedText, readCachedText } from './cached-text-reader';
import { docxBlocks } from './docx-blocks';

/**
 * The files feature's CPU pool tasks (listed with the others in src/cpu-tasks.ts). A face of its
 * own, apart from index.ts, so a worker thread loads only these modules, not the feature's routes.
 */
export const filesCpuTasks = {
  /** A file's cached text (file_text_cache), parsed. */
  parseCachedText,
  /** A file's cached text read from its SQLite file and parsed (undefined when not cached). */
  readCachedText: (a: { dbFile: string; fileId: number }) => readCachedText(a.dbFile, a.fileId),
  /** A docx's headings, lists and tables for its preview (mammoth, then parse5). */
  docxBlocks: (bytes: Uint8Array) =>
    docxBlocks(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
};

export type FilesCpuTasks = typeof filesCpuTasks;
