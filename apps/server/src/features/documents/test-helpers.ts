import type { FileExtension } from '@inkwell/contract';
import type { OpenAIRequestBody } from '../../../test/openai-test-server';
import type { TestServer } from '../../../test/test-app';
import { makeDocx, makePdf, makePptx, makeXlsx } from '../files/testing';

/** Shared by the documents tests: one small document per type carrying a marker word. */
export const TYPES: FileExtension[] = ['txt', 'csv', 'xlsx', 'docx', 'pptx', 'pdf'];

/** Where the marker sits in each fixture, as the chunker labels it (rows count the header). */
export const REF: Record<FileExtension, RegExp> = {
  txt: /Paragraph 2/,
  csv: /Sheet1 row 3/,
  xlsx: /Reviews row 3/,
  docx: /Paragraph 2/,
  pptx: /Slide 2/,
  pdf: /Page 2/,
};

export async function fixture(type: FileExtension, marker: string): Promise<Uint8Array> {
  const intro = 'Quarterly report of the lighthouse keepers.';
  const line = `The ${marker} budget grew by twelve percent.`;
  switch (type) {
    case 'txt':
      return Buffer.from(`${intro}\n\n${line}\n\nThe end.`);
    case 'csv':
      return Buffer.from(`id,comment\n1,${intro}\n2,${line}\n`);
    case 'xlsx':
      return makeXlsx({
        Reviews: [
          ['id', 'comment'],
          [1, intro],
          [2, line],
        ],
      });
    case 'docx':
      return makeDocx([intro, line, 'The end.']);
    case 'pptx':
      return makePptx([[intro], [line]]);
    case 'pdf':
      return makePdf([intro, line]);
  }
}

export interface FormInput {
  file?: { name: string; bytes: Uint8Array | string };
  fields?: Record<string, string>;
}

/** A multipart POST as the web app sends it. */
export function postForm(server: TestServer, path: string, token: string, input: FormInput) {
  const form = new FormData();
  for (const [k, v] of Object.entries(input.fields ?? {})) form.append(k, v);
  if (input.file) {
    const b = input.file.bytes;
    form.append('file', new Blob([typeof b === 'string' ? b : new Uint8Array(b)]), input.file.name);
  }
  return server.request(path, { method: 'POST', token, body: form });
}

/** Everything the model was sent, as one string per request. */
export const sentTexts = (requests: OpenAIRequestBody[]) =>
  requests.map((r) => r.messages.map((m) => m.content).join('\n'));
