import type { FastifyBaseLogger } from 'fastify';
import type { Db, Dialect } from '../../../db/database';
import type { LanguageModel } from '../../ai';
import { EMBEDDING_BATCH, inTurn, type Embedder } from '../retrieval/embeddings';
import { FileClaims } from './file-claims';
import { knowledgeRepo } from './knowledge.repo';
import { MAX_PASSAGES } from './passages';
import { searchClaimsRepo } from './search-claims.repo';
import { vectorsRepo } from './vectors.repo';
import { centroidOf, quantize } from './vectors';

/**
 * With an embeddings model (AI_EMBEDDINGS_MODEL), gives each searchable file's passages their
 * vectors, once: after the file is indexed (its words are searchable before), and for every file
 * without vectors of the configured model (after an upgrade, a model change, a restart). Each
 * request goes through the model's scheduler as the file owner's document work
 * (embeddings.ts inTurn), so it takes turns with everyone's calls and leaves room for people.
 * Questions never compute a passage's vector: a file without vectors yet is found by its words.
 * A failure ends the round (the model may be down; the next sweep tries again); a file whose
 * vectors fail three times waits for the next start (a passage the model refuses would otherwise
 * cost a request every sweep). App servers sharing PostgreSQL each run one: a file's vectors are
 * computed by the one that claims it (file-claims.ts), so the model embeds each passage once.
 */
const SWEEP_MS = 15_000;
const SWEEP_BATCH = 50;
const MAX_FAILURES = 3;

/**
 * A model server's vectors are taken only as they should be: one per passage, all of one size,
 * finite numbers (a vector of another size or with a NaN would compare as nothing, silently).
 */
export function checkVectors(vectors: number[][], count: number): void {
  const dims = vectors[0]?.length ?? 0;
  const ok =
    vectors.length === count &&
    dims > 0 &&
    vectors.every((v) => Array.isArray(v) && v.length === dims && v.every(Number.isFinite));
  if (!ok) throw new Error('The embeddings model answered vectors of mixed sizes or non-numbers');
}

export class VectorIndexer {
  private readonly failures = new Map<number, number>();
  private readonly stopping = new AbortController();
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly claims: FileClaims;

  constructor(
    private readonly deps: { db: Db; dialect: Dialect; ai: LanguageModel; embedder: Embedder },
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'error'>,
  ) {
    this.claims = new FileClaims(deps.db, deps.dialect, 'vectors');
  }

  start(): void {
    const tick = () => {
      this.poke();
      if (!this.stopping.signal.aborted) this.timer = setTimeout(tick, SWEEP_MS).unref();
    };
    tick();
  }

  /** Looks for files without vectors now (a file was just indexed). */
  poke(): void {
    if (this.stopping.signal.aborted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err) => this.log.error({ err }, 'search vectors: the sweep failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.poke();
        }
      });
  }

  /** Resolves when no file is waiting for its vectors (tests). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  private async drain(): Promise<void> {
    const { db, embedder } = this.deps;
    // Files another app server is embedding: left to it this round (still pending, they would be
    // asked for again at once, round after round, until it is done).
    const elsewhere = new Set<number>();
    const skipped = (fileId: number) =>
      elsewhere.has(fileId) || (this.failures.get(fileId) ?? 0) >= MAX_FAILURES;
    for (;;) {
      const limit = SWEEP_BATCH + this.failures.size + elsewhere.size;
      const rows = (await vectorsRepo.pending(db, embedder.model, limit))
        .filter((r) => !skipped(r.file_id))
        .slice(0, SWEEP_BATCH);
      if (rows.length === 0 || this.stopping.signal.aborted) return;
      for (const r of rows) {
        if (this.stopping.signal.aborted) return;
        try {
          const embed = () => this.embedFile(r.file_id, r.user_id, r.updated_at);
          if (!(await this.claims.whileHeld(r.file_id, embed))) elsewhere.add(r.file_id);
          this.failures.delete(r.file_id);
        } catch (err) {
          if (this.stopping.signal.aborted) return;
          this.failures.set(r.file_id, (this.failures.get(r.file_id) ?? 0) + 1);
          this.log.warn({ err, fileId: r.file_id }, 'search vectors: a file failed');
          // The model may be down: the next sweep tries again.
          return;
        }
      }
    }
  }

  private async embedFile(fileId: number, userId: number, stamp: string): Promise<void> {
    const { db, ai, embedder } = this.deps;
    // Given its vectors by another app server since it was found pending (or indexed again).
    if (!(await searchClaimsRepo.needsVectors(db, fileId, stamp, embedder.model))) return;
    const passages = await knowledgeRepo.first(db, userId, fileId, MAX_PASSAGES);
    const turn = inTurn(embedder, ai, { priority: 'batch', owner: userId });
    const raw: number[][] = [];
    for (let i = 0; i < passages.length; i += EMBEDDING_BATCH) {
      // A file deleted (or indexed again) meanwhile: its other batches would keep the model busy
      // for vectors that could not be stored.
      if (i > 0 && !(await vectorsRepo.current(db, fileId, stamp))) return;
      const batch = passages.slice(i, i + EMBEDDING_BATCH).map((p) => p.text);
      raw.push(...(await turn.embed(batch, this.stopping.signal)));
    }
    checkVectors(raw, passages.length);
    await vectorsRepo.store(db, {
      fileId,
      userId,
      model: embedder.model,
      stamp,
      vectors: passages.map((p, i) => ({ ord: p.ord, vector: quantize(raw[i]!) })),
      centroid: centroidOf(raw),
    });
  }
}
