// Loads a GGUF model in a separate process and evaluates one token. llama.cpp can abort the whole
// process on a malformed model, so the server runs this first: a crash here is just an exit code.
// Usage: node llama-probe-child.mjs <model.gguf> <gpu: false|auto|cuda|vulkan|metal>
import { getLlama, LlamaLogLevel } from 'node-llama-cpp';

const [file, gpuArg = 'false'] = process.argv.slice(2);
const gpu = gpuArg === 'false' ? false : gpuArg;
const llama = await getLlama({ gpu, build: 'never', logLevel: LlamaLogLevel.error, maxThreads: 1 });
const model = await llama.loadModel({ modelPath: file });
const context = await model.createContext({ contextSize: 256, threads: 1 });
const sequence = context.getSequence();
const tokens = model.tokenize('Hi');
const iterator = sequence.evaluate(tokens.length > 0 ? tokens : [0]);
await iterator.next();
await iterator.return();
await llama.dispose();
process.stdout.write('ok\n');
