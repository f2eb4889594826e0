// A passage worker (see passage-pool.ts): keeps the passage indexes (and vectors) of recent
// files and answers searches against them; an index is built from the units sent with a search
// that missed.
import { parentPort } from 'node:worker_threads';
import { serveCalls } from '../../../lib/worker-thread';
import type { TextUnit } from '../../files';
import {
  buildPassageIndex,
  neighboursOfRanked,
  searchPassages,
  type Candidate,
  type PassageIndex,
} from './passage-index';
import { fuseRankings, vectorRanking } from './rank-fusion';
import { readStored } from '../knowledge/stored-reads';

export interface SearchCall {
  op: 'search';
  key: string;
  question: string;
  limit: number;
  /** The document, when the caller has read it (after a miss, or for a one-off upload). */
  units?: TextUnit[];
  /** The question's vector: ranked by BM25 and vectors together when the file has vectors. */
  query?: { model: string; vector: number[] };
}

/** The texts of a file's passages when it has no vectors of this model yet. */
export interface TextsCall {
  op: 'texts';
  key: string;
  model: string;
}

export interface VectorsCall {
  op: 'vectors';
  key: string;
  model: string;
  dims: number;
  vectors: Float32Array;
}

/** A query of the stored search index, read with the worker's own handle (knowledge/stored-reads.ts). */
export interface StoredCall {
  op: 'stored';
  dbFile: string;
  query: { sql: string; parameters: readonly unknown[] };
}

export type PassageCall = SearchCall | TextsCall | VectorsCall | StoredCall;

export type SearchReply =
  | { found: false }
  | {
      found: true;
      language: string;
      hybrid: boolean;
      ranked: Candidate[];
      neighbours: Candidate[];
    };

export type TextsReply = { found: false } | { found: true; texts: string[] | null };

interface Kept extends PassageIndex {
  vectors?: { model: string; dims: number; data: Float32Array };
}

/** Text kept per worker: about five 10 MB files; the least recently asked go first. */
const MAX_CHARS = 64 * 1024 * 1024;
/** Passages each ranking gives to the fusion. */
const FUSION_DEPTH = 200;
const indexes = new Map<string, Kept>();
let chars = 0;

function lookUp(key: string, units?: TextUnit[]): Kept | undefined {
  let index = indexes.get(key);
  if (index) {
    indexes.delete(key); // re-inserted: the Map's order is the recency order
  } else {
    if (!units) return undefined;
    index = buildPassageIndex(units);
    chars += index.chars;
  }
  indexes.set(key, index);
  for (const [k, old] of indexes) {
    if (chars <= MAX_CHARS || k === key) break;
    indexes.delete(k);
    chars -= old.chars;
  }
  return index;
}

function search(call: SearchCall): SearchReply {
  const index = lookUp(call.key, call.units);
  if (!index) return { found: false };
  const v = index.vectors;
  const hybrid =
    !!call.query && v?.model === call.query.model && v.dims === call.query.vector.length;
  let ranked = searchPassages(index, call.question, hybrid ? FUSION_DEPTH : call.limit);
  if (hybrid) {
    const byVector = vectorRanking(v!.data, v!.dims, call.query!.vector, FUSION_DEPTH);
    const fused = fuseRankings([ranked.map((c) => c.index), byVector], call.limit);
    ranked = fused.map(({ index: i, score }) => ({ ...index.passages[i]!, index: i, score }));
  }
  const neighbours = neighboursOfRanked(index, ranked);
  return { found: true, language: index.language, hybrid, ranked, neighbours };
}

serveCalls(
  parentPort!,
  (call: PassageCall): SearchReply | TextsReply | unknown[] | { ok: boolean } => {
    if (call.op === 'search') return search(call);
    if (call.op === 'stored') return readStored(call.dbFile, call.query);
    const index = indexes.get(call.key);
    if (!index) return call.op === 'texts' ? { found: false } : { ok: false };
    if (call.op === 'texts')
      return {
        found: true,
        texts: index.vectors?.model === call.model ? null : index.passages.map((p) => p.text),
      };
    // Counted in the cache's bound like text (a float weighs about what 4 characters do).
    const weight = call.vectors.length - (index.vectors?.data.length ?? 0);
    index.vectors = { model: call.model, dims: call.dims, data: call.vectors };
    index.chars += weight;
    chars += weight;
    return { ok: true };
  },
);
