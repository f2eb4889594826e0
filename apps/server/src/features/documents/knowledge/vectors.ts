/**
 * Passage vectors as the index keeps them: each scaled to its largest component and rounded to
 * int8 (a quarter of float32's bytes; cosine similarity ignores a vector's length, so no scale is
 * kept). The rounding moves a cosine by well under 0.01, far less than the gap between a
 * passage that answers and one that does not.
 */
export function quantize(vector: ArrayLike<number>): Buffer {
  let max = 0;
  for (let i = 0; i < vector.length; i++) max = Math.max(max, Math.abs(vector[i]!));
  const out = Buffer.alloc(vector.length);
  const scale = max > 0 ? 127 / max : 0;
  for (let i = 0; i < vector.length; i++) out.writeInt8(Math.round(vector[i]! * scale), i);
  return out;
}

const asInt8 = (b: Uint8Array) => new Int8Array(b.buffer, b.byteOffset, b.byteLength);

/** The mean direction of a file's vectors: each counted at unit length. */
export function centroidOf(vectors: number[][]): Buffer {
  const dims = vectors[0]?.length ?? 0;
  const sum = new Float64Array(dims);
  for (const v of vectors) {
    let norm = 0;
    for (const x of v) norm += x * x;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < dims; d++) sum[d]! += v[d]! / norm;
  }
  return quantize(sum);
}

/** A question's vector, ready to be compared with many stored ones. */
export interface QueryVector {
  values: Float64Array;
  norm: number;
}

export function queryVector(vector: number[]): QueryVector {
  const values = Float64Array.from(vector);
  let norm = 0;
  for (const x of values) norm += x * x;
  return { values, norm: Math.sqrt(norm) || 1 };
}

/** Cosine similarity of the question and a stored vector (0 when their sizes differ). */
export function cosine(q: QueryVector, stored: Uint8Array): number {
  const v = asInt8(stored);
  if (v.length !== q.values.length) return 0;
  let dot = 0;
  let norm = 0;
  for (let d = 0; d < v.length; d++) {
    const x = v[d]!;
    dot += x * q.values[d]!;
    norm += x * x;
  }
  return norm === 0 ? 0 : dot / (Math.sqrt(norm) * q.norm);
}
