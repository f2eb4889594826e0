// Documents: a 10 MB docx is read, chunked and summarised (map-reduce) against a local canned
// OpenAI-compatible server. Reports extraction + chunking time, the model calls and tokens the
// summary needs, and checks them against the bound ceil(tokens / chunk size) + combine steps and
// that no prompt + reply exceeds the context window.
import os from 'node:os';
import JSZip from 'jszip';
import { startOpenAITestServer } from '../apps/server/test/openai-test-server';
import { OpenAIModel } from '../apps/server/src/features/ai/openai-model';
import { extractText } from '../apps/server/src/features/documents/reader';
import { chunkDocument } from '../apps/server/src/features/documents/chunking';
import {
  expectedCalls,
  planSummary,
  summarizeDocument,
} from '../apps/server/src/features/documents/summarize.service';

const TARGET_BYTES = 10 * 1024 * 1024;
const CONTEXT = 8192;

function result(name: string, value: number, unit: string, target: string, met: boolean) {
  console.log(`RESULT ${JSON.stringify({ name, value, unit, target, met })}`);
}

/** Pseudo-random words (seeded), so the docx deflates like real prose rather than to nothing. */
function* words(seed = 42): Generator<string> {
  let x = seed;
  const rnd = () => ((x = (x * 1103515245 + 12345) % 2 ** 31), x / 2 ** 31);
  const syl = [
    'ka',
    'lo',
    'mi',
    'ter',
    'on',
    'sa',
    'vel',
    'ri',
    'du',
    'pen',
    'ax',
    'or',
    'ly',
    'est',
  ];
  const vocab = Array.from({ length: 4000 }, () =>
    Array.from(
      { length: 1 + Math.floor(rnd() * 4) },
      () => syl[Math.floor(rnd() * syl.length)],
    ).join(''),
  );
  for (;;) yield vocab[Math.floor(rnd() * vocab.length)]!;
}

async function makeBigDocx(): Promise<Buffer> {
  const w = words();
  const paragraphs: string[] = [];
  let xmlBytes = 0;
  // About 3:1 compression for such text: generate XML until the zip would reach ~10 MB.
  while (xmlBytes < TARGET_BYTES * 3.55) {
    const n = 40 + (paragraphs.length % 80);
    const text = Array.from({ length: n }, () => w.next().value).join(' ') + '.';
    const p = `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
    paragraphs.push(p);
    xmlBytes += p.length;
  }
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs.join('')}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

async function main() {
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  console.log(
    `Machine: ${cpu}, ${os.availableParallelism()} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
  );
  const docx = await makeBigDocx();
  console.log(`Generated docx: ${(docx.length / 2 ** 20).toFixed(2)} MiB`);

  const t0 = performance.now();
  const doc = await extractText({ type: 'docx', bytes: docx });
  const t1 = performance.now();

  // Worst case for the reduce tree: every reply uses all the tokens it is allowed.
  const server = await startOpenAITestServer({
    reply: (_m, body) => 'summary '.repeat(Math.floor(((body.max_tokens ?? 64) * 3.5) / 8.5)),
  });
  const model = new OpenAIModel({ baseUrl: server.url, timeoutMs: 30_000, contextTokens: CONTEXT });
  const count = (t: string) => model.countTokens(t);
  const plan = planSummary({ ai: model });
  const t2 = performance.now();
  const chunks = chunkDocument(doc.units, plan.chunkBudget, count);
  const t3 = performance.now();
  const tokens = chunks.reduce((s, c) => s + c.tokens, 0);
  console.log(
    `Extracted ${doc.text.length.toLocaleString('en')} characters in ${doc.units.length} units` +
      `${doc.truncated ? ' (reader cap reached: truncated)' : ''}; ${tokens.toLocaleString('en')} tokens; ` +
      `${chunks.length} chunks of ≤ ${plan.chunkBudget} tokens (context ${CONTEXT}).`,
  );
  const extractMs = t1 - t0;
  const chunkMs = t3 - t2;
  console.log(`Extraction ${extractMs.toFixed(0)} ms, chunking ${chunkMs.toFixed(0)} ms`);
  result(
    'documents.extract_10mb_docx',
    Math.round(extractMs),
    'ms',
    '< 20000 (reader time limit)',
    extractMs < 20_000,
  );
  result('documents.chunk_10mb_docx', Math.round(chunkMs), 'ms', '< 2000', chunkMs < 2000);

  let calls = 0;
  let promptTokens = 0;
  let maxWindow = 0;
  const t4 = performance.now();
  await summarizeDocument(
    {
      ai: model,
      onCall: (c) => {
        calls += 1;
        promptTokens += c.promptTokens;
        maxWindow = Math.max(maxWindow, c.promptTokens + c.maxTokens);
      },
    },
    doc.units,
  );
  const t5 = performance.now();
  await server.close();

  const mapBound = Math.ceil(tokens / plan.chunkBudget);
  const bound = expectedCalls(chunks, plan);
  console.log(
    `Summary: ${calls} model calls (${chunks.length} map + ${calls - chunks.length} combine), ` +
      `${promptTokens.toLocaleString('en')} prompt tokens, largest prompt + reply ${maxWindow} tokens, ` +
      `${(t5 - t4).toFixed(0)} ms against the canned server.`,
  );
  console.log(
    `Bound: ceil(${tokens} / ${plan.chunkBudget}) = ${mapBound} map calls; with combine steps ${bound}.`,
  );
  result(
    'documents.summary_model_calls',
    calls,
    'calls',
    `<= ${bound} (ceil(tokens/chunk)=${mapBound} + combines)`,
    calls <= bound,
  );
  result(
    'documents.summary_map_calls',
    chunks.length,
    'calls',
    `<= ceil(tokens/chunk) × 1.1 = ${Math.ceil(mapBound * 1.1)}`,
    chunks.length <= Math.ceil(mapBound * 1.1),
  );
  result(
    'documents.summary_prompt_tokens',
    promptTokens,
    'tokens',
    `~ document tokens ${tokens} + overhead`,
    promptTokens < tokens * 1.3,
  );
  result(
    'documents.summary_max_window',
    maxWindow,
    'tokens',
    `<= context ${CONTEXT}`,
    maxWindow <= CONTEXT,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
