import { uploadFileResponseSchema, type UploadFileResponse } from '@inkwell/contract';
import { ApiError, apiUrl, refreshAccessToken, reportError } from '../../../lib/api-client';
import { API_MESSAGES, messageForStatus } from '../../../lib/api-messages';
import { session } from '../../../lib/session';

/**
 * POST /api/upload_file with upload progress. fetch cannot report upload progress, so this one
 * call uses XMLHttpRequest, keeping the client's rules: bearer token, one refresh and retry on
 * 401, ApiError with the spec §8 texts, failures reported to /api/logs.
 */
export async function uploadFile(
  file: File,
  onProgress: (percent: number) => void,
): Promise<UploadFileResponse> {
  try {
    let result = await send(file, onProgress);
    if (result.status === 401) {
      // Retried only with a fresh token (as apiRequest does): a failed refresh fails the upload.
      let refreshed = false;
      try {
        await refreshAccessToken();
        refreshed = true;
      } catch (err) {
        reportError(`Token refresh failed: ${(err as Error).message}`);
      }
      if (refreshed) result = await send(file, onProgress);
    }
    if (result.status < 200 || result.status >= 300) {
      throw new ApiError(messageForStatus(result.status), result.status, errorOf(result.body));
    }
    try {
      return uploadFileResponseSchema.parse(JSON.parse(result.body));
    } catch {
      throw new ApiError(API_MESSAGES.other, result.status, 'Unexpected response from server');
    }
  } catch (err) {
    const error = err instanceof ApiError ? err : new ApiError(API_MESSAGES.network, null);
    reportError(
      `POST upload_file failed: ${error.status ?? 'no response'} ${error.serverMessage ?? error.message}`,
    );
    throw error;
  }
}

function send(file: File, onProgress: (percent: number) => void) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl('upload_file'));
    const token = session.getAccessToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => resolve({ status: xhr.status, body: xhr.responseText });
    xhr.onerror = () => reject(new ApiError(API_MESSAGES.network, null));
    const body = new FormData();
    body.append('file', file);
    xhr.send(body);
  });
}

function errorOf(body: string): string | undefined {
  try {
    const data: unknown = JSON.parse(body);
    if (data && typeof data === 'object' && 'error' in data && typeof data.error === 'string') {
      return data.error;
    }
  } catch {
    // Not JSON.
  }
  return undefined;
}
