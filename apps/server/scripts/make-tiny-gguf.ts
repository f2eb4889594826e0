/**
 * Writes the tiny test GGUF: `node --import tsx scripts/make-tiny-gguf.ts [out.gguf]`.
 * Point MODEL_PATH at it to run the server with the embedded provider and no download.
 */
import path from 'node:path';
import { writeTinyGguf } from '../src/features/ai';

const out = path.resolve(process.argv[2] ?? 'tiny-llama.gguf');
writeTinyGguf(out);
console.log(`Wrote ${out}`);
