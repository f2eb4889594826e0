import type { DownloadFormat } from '@inkwell/contract';
import { cpuPool } from '../../workers/cpu-pool';
import type { DocumentsCpuTasks } from './documents.cpu';

/**
 * The AI's answer as a file the user downloads: txt (UTF-8), docx or pdf (export-render.ts).
 * Text stays extractable in all three.
 */
export interface ExportedFile {
  body: Buffer;
  contentType: string;
  fileName: string;
}

const CONTENT_TYPES: Record<DownloadFormat, string> = {
  txt: 'text/plain; charset=utf-8',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/**
 * A docx or pdf is laid out in the CPU pool, within its time limit: half a million characters
 * take seconds and hundreds of MB there, never the event loop's. `signal` (the client left)
 * stops it.
 */
export async function exportText(
  text: string,
  format: DownloadFormat,
  fileName?: string,
  signal?: AbortSignal,
): Promise<ExportedFile> {
  const base = (fileName ?? '').trim().replace(/\.(txt|pdf|docx)$/i, '') || 'downloaded_file';
  let body: Buffer;
  if (format === 'txt') body = Buffer.from(text.replace(/\r?\n/g, '\r\n'), 'utf8');
  else {
    const bytes = await cpuPool<DocumentsCpuTasks>().run(
      'exportFile',
      { text, format },
      { signal },
    );
    body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  return { body, contentType: CONTENT_TYPES[format], fileName: `${base}.${format}` };
}
