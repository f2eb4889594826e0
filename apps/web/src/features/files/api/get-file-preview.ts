import { previewResponseSchema, type PreviewResponse } from '@inkwell/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export type FilePreview = PreviewResponse | { kind: 'pdf'; data: ArrayBuffer };

/** GET /api/preview_file/:id: pdf bytes, or JSON text / table / slides. */
export async function getFilePreview(id: number): Promise<FilePreview> {
  const response = await apiRequest<Response>(`preview_file/${id}`, { responseType: 'response' });
  if ((response.headers.get('Content-Type') ?? '').includes('application/pdf')) {
    return { kind: 'pdf', data: await response.arrayBuffer() };
  }
  return previewResponseSchema.parse(await response.json());
}

export const filePreviewQuery = (id: number) =>
  queryOptions({
    queryKey: ['files', id, 'preview'],
    queryFn: () => getFilePreview(id),
    staleTime: 60_000,
  });

/**
 * GET /api/preview_file/:id?format=text: a pdf's text page by page, pages read by OCR marked; for
 * the other types their usual JSON preview. Its `text` is the file's extracted text, in which the
 * sources of an answer across files give their passages' offsets.
 */
export async function getPdfText(id: number): Promise<PreviewResponse> {
  return previewResponseSchema.parse(await apiRequest(`preview_file/${id}?format=text`));
}

export const pdfTextQuery = (id: number) =>
  queryOptions({
    queryKey: ['files', id, 'preview', 'text'],
    queryFn: () => getPdfText(id),
    staleTime: 60_000,
  });
