import type { Db, Dialect } from '../../../db/database';
import type { LanguageModel } from '../../ai';
import type { Jobs } from '../../jobs';
import type { Embedder } from '../retrieval/embeddings';
import { giveAskPromptBack } from './ask-files-prompt';
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
  jobs.register<AskFilesJobInput>(
    'ask_files',
    (ctx) =>
      askFiles(
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
      ),
    {
      // A question that got no answer (failed; cancelled, queued or running) gives its prompt
      // back, once, when that end is saved. Not when a run throws: a run cut by a database fault
      // is tried again and one cut by a stop resumes elsewhere, and either may still answer.
      ended: async (end) => {
        if (end.state === 'done' || end.userId === null) return;
        await giveAskPromptBack(deps.db, deps.dialect, { userId: end.userId, day: end.input.day });
      },
    },
  );
}
