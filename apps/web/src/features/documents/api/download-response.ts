import type { DownloadFormat } from '@inkwell/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/download-response: the text as a txt, pdf or docx file. */
export function downloadResponse(text: string, format: DownloadFormat): Promise<Blob> {
  return apiRequest<Blob>('download-response', {
    method: 'POST',
    body: { text, format },
    responseType: 'blob',
  });
}
