import type { Db, Dialect } from '../../../db/database';
import type { LanguageModel } from '../../ai';
import { releasePrompt } from '../../chat';
import type { Jobs } from '../../jobs';
import type { Embedder } from '../retrieval/embeddings';
import { askFiles } from './ask-files.service';

/** What an `ask_files` job keeps: the question, the files asked, the day its prompt counts on. */
export interface AskFilesJobInput {
  text: string;
  fileIds?: number[];
  day: string;
}

export function registerAskFilesJob(
  jobs: Jobs,
  deps: { db: Db; dialect: Dialect; ai: LanguageModel },
  settings: { askMaxPassageTokens?: number; embeddings?: Embedder },
) {
  jobs.register<AskFilesJobInput>('ask_files', async (ctx) => {
    try {
      return await askFiles(
        {
          ...deps,
          owner: ctx.owner,
          progress: ctx.progress,
          signal: ctx.signal,
          parts: ctx.parts,
          maxPassageTokens: settings.askMaxPassageTokens,
          embeddings: settings.embeddings,
        },
        { userId: ctx.userId!, text: ctx.input.text, fileIds: ctx.input.fileIds },
      );
    } catch (err) {
      // A question that got no answer (failed, cancelled) gives its prompt back.
      await releasePrompt(deps.db, ctx.userId!, ctx.input.day).catch(() => undefined);
      throw err;
    }
  });
}
