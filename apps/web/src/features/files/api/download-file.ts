import { apiRequest } from '../../../lib/api-client';

/** GET /api/download_file/:id: the bytes and the name from Content-Disposition. */
export async function downloadFile(
  id: number,
  fallbackName: string,
): Promise<{ blob: Blob; fileName: string }> {
  const response = await apiRequest<Response>(`download_file/${id}`, { responseType: 'response' });
  const fileName =
    fileNameFromDisposition(response.headers.get('Content-Disposition')) ?? fallbackName;
  return { blob: await response.blob(), fileName };
}

/** RFC 6266: `filename*=UTF-8''…` (RFC 5987) wins over the plain `filename=`. */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (star?.[2]) {
    try {
      return decodeURIComponent(star[2].trim().replace(/^"|"$/g, ''));
    } catch {
      // Malformed encoding: try the plain form.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  const name = plain?.[2] ?? plain?.[1]?.trim();
  return name || null;
}
