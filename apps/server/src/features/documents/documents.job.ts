import { buffer } from 'node:stream/consumers';
import type { FileExtension, SummaryMode, TranslationLanguage } from '@inkwell/contract';
import type { LanguageModel } from '../ai';
import { findOwnedFile, type FilesDeps, type TextUnit } from '../files';
import type { JobContext, Jobs } from '../jobs';
import { englishDialectOf } from '../users';
import { personalWords } from '../dictionary';
import { askDocument } from './ask.service';
import { readDocument, type DocumentSource } from './document-input';
import type { AiDeps } from './model-calls';
import { proofread } from './proofread.service';
import { warmUpHarper } from './proofread/harper-pool';
import type { Embedder } from './retrieval/embeddings';
import { storedFileKey, type PassageSearch, type PassageSource } from './retrieval/passage-pool';
import { storedFileSearch, type StoredMeaning } from './knowledge/stored-file-source';
import { analyzeSentiment } from './sentiment.service';
import { summarizeDocument } from './summarize.service';
import { translateDocument, translateText } from './translate.service';

/**
 * The document actions as jobs: what the job stores to run them later, possibly in another
 * process, and the handler of each kind. A stored file is read again from storage; an uploaded
 * one was kept with the job (jobs.readUpload).
 */
export type StoredSource =
  | { kind: 'stored'; fileId: number; name: string }
  | { kind: 'upload'; name: string; type: FileExtension }
  /** Text typed in the chat (a translation): in `fields.text`. */
  | { kind: 'typed' };

export interface DocumentJobInput {
  source: StoredSource;
  fields: {
    text?: string;
    target_language?: TranslationLanguage;
    source_language?: TranslationLanguage;
    mode?: SummaryMode;
    /** Sentiment: the table column to score. */
    column?: string;
  };
}

export const TRUNCATED_NOTE =
  '(This document is very long: only its first part was read and summarized.)';

/** What a job keeps of the request's document (the upload's bytes go to jobs.create). */
export function storedSource(source: DocumentSource): StoredSource {
  return source.kind === 'upload'
    ? { kind: 'upload', name: source.file.name, type: source.file.type }
    : source;
}

export function registerDocumentJobs(
  jobs: Jobs,
  files: FilesDeps,
  ai: LanguageModel,
  settings: {
    summaryMaxTokens: number;
    askMaxPassageTokens?: number;
    embeddings?: Embedder;
    /** PROOFREAD_WARM_UP: start the grammar checker now, not on the first proofread. */
    warmUpProofreading?: boolean;
  },
) {
  if (settings.warmUpProofreading) void warmUpHarper().catch(() => undefined);
  const deps = (ctx: JobContext): AiDeps => ({
    ai,
    owner: ctx.owner,
    progress: ctx.progress,
    signal: ctx.signal,
    parts: ctx.parts,
    maxPassageTokens: settings.askMaxPassageTokens,
    embeddings: settings.embeddings,
  });
  const meaning = (ctx: JobContext): StoredMeaning | undefined =>
    settings.embeddings && {
      ai,
      embedder: settings.embeddings,
      owner: ctx.owner,
      signal: ctx.signal,
    };
  const read = async (ctx: JobContext<DocumentJobInput>) => {
    ctx.progress.stage('reading');
    const s = ctx.input.source;
    if (s.kind === 'typed') throw new Error('typed text is no document');
    const source: DocumentSource =
      s.kind === 'stored'
        ? s
        : {
            kind: 'upload',
            file: {
              name: s.name,
              type: s.type,
              bytes: await buffer(await jobs.readUpload(ctx.jobId)),
            },
          };
    return readDocument(files, ctx.userId!, source, ctx.signal);
  };

  jobs.register<DocumentJobInput>('summarize', async (ctx) => {
    const doc = await read(ctx);
    const summary = await summarizeDocument(deps(ctx), doc.units, {
      mode: ctx.input.fields.mode ?? 'bounded',
      maxTokens: settings.summaryMaxTokens,
    });
    return { summary: doc.truncated ? `${summary}\n\n${TRUNCATED_NOTE}` : summary };
  });
  jobs.register<DocumentJobInput>('ask', async (ctx) => {
    const s = ctx.input.source;
    // A stored file's passage index is kept (retrieval/passage-pool.ts): its text is read only
    // when the index is not there yet. Whose file it is is checked every time.
    if (s.kind === 'stored') await findOwnedFile(files, ctx.userId!, s.fileId);
    // Once searchable, from the stored index (features/documents/knowledge), with its stored
    // vectors when there is an embeddings model.
    const stored =
      s.kind === 'stored'
        ? await storedFileSearch(files.db, files.dialect, ctx.userId!, s.fileId, meaning(ctx))
        : undefined;
    const document: PassageSource | TextUnit[] | PassageSearch = stored
      ? stored
      : s.kind === 'stored'
        ? { key: storedFileKey(s.fileId), load: async () => (await read(ctx)).units }
        : (await read(ctx)).units;
    // A stored file's passages are embedded once, by the indexer (knowledge/vector-indexer.ts):
    // while it is still being read, its words answer alone. An uploaded one is embedded here.
    const asking = s.kind === 'stored' ? { ...deps(ctx), embeddings: undefined } : deps(ctx);
    const { response } = await askDocument(asking, document, ctx.input.fields.text ?? '');
    return { response };
  });
  jobs.register<DocumentJobInput>('translate', async (ctx) => {
    const target = ctx.input.fields.target_language!;
    if (ctx.input.source.kind === 'typed') {
      // A person waits on typed text: its calls go before document work, as a chat's do.
      const text = ctx.input.fields.text ?? '';
      const source = ctx.input.fields.source_language;
      const typed = { ...deps(ctx), priority: 'interactive' as const };
      return { translation: await translateText(typed, text, { target, source }) };
    }
    const doc = await read(ctx);
    return { translation: await translateDocument(deps(ctx), doc.units, { target }) };
  });
  jobs.register<DocumentJobInput>('proofread', async (ctx) => {
    const doc = await read(ctx);
    return proofread(deps(ctx), doc.text, {
      instruction: ctx.input.fields.text,
      dialect: await englishDialectOf(files.db, ctx.userId!),
      words: await personalWords(files.db, ctx.userId!),
    });
  });
  jobs.register<DocumentJobInput>('sentiment', async (ctx) =>
    analyzeSentiment(deps(ctx), await read(ctx), ctx.input.fields.column),
  );
}
