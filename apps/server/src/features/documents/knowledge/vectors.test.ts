import { describe, expect, it } from 'vitest';
import { checkVectors } from './vector-indexer';
import { centroidOf, cosine, quantize, queryVector } from './vectors';

describe('passage vectors', () => {
  it('keeps a vector as int8 whose cosine with the question is that of the original', () => {
    const v = [0.12, -0.5, 0.33, 0.9, -0.01];
    const q = [0.1, -0.4, 0.3, 1, 0];
    const exact = v.reduce((s, x, i) => s + x * q[i]!, 0) / (Math.hypot(...v) * Math.hypot(...q));
    expect(cosine(queryVector(q), quantize(v))).toBeCloseTo(exact, 2);
    // Another size compares as nothing, never as a wrong number.
    expect(cosine(queryVector([1, 2]), quantize(v))).toBe(0);
  });

  it("points a file's mean vector where most of its passages point", () => {
    const centroid = centroidOf([
      [10, 0],
      [0.1, 0],
      [0, 1],
    ]);
    expect(cosine(queryVector([1, 0]), centroid)).toBeGreaterThan(
      cosine(queryVector([0, 1]), centroid),
    );
  });

  it("refuses a model's vectors of mixed sizes, missing ones or non-numbers", () => {
    expect(() =>
      checkVectors(
        [
          [1, 2],
          [3, 4],
        ],
        2,
      ),
    ).not.toThrow();
    expect(() => checkVectors([[1, 2], [3]], 2)).toThrow(/mixed sizes/);
    expect(() => checkVectors([[1, 2]], 2)).toThrow();
    expect(() => checkVectors([[1, Number.NaN]], 1)).toThrow();
    expect(() => checkVectors([], 0)).toThrow();
  });
});
