import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { validateUpload } from '../../../lib/validate-upload';
import { uploadFile } from '../api/upload-file';
import type { UploadStatus } from '../components/UploadStatusDialog';

export const UPLOAD_FAILED = 'Failed to upload file.';

/** Upload with its status (spec §5 checks first, then the progress, then §8 messages). */
export function useUpload() {
  const [status, setStatus] = useState<UploadStatus | null>(null);
  const queryClient = useQueryClient();

  async function upload(file: File) {
    const fileName = file.name;
    const problem = validateUpload(file);
    if (problem) {
      setStatus({ state: 'failed', fileName, message: problem });
      return;
    }
    setStatus({ state: 'uploading', fileName, percent: 0 });
    try {
      const result = await uploadFile(file, (percent) =>
        setStatus({ state: 'uploading', fileName, percent }),
      );
      setStatus({ state: 'done', fileName, message: result.message });
      await queryClient.invalidateQueries({ queryKey: ['files'] });
    } catch (err) {
      const e = err as ApiError;
      const message =
        e instanceof ApiError && e.status !== null
          ? (e.serverMessage ?? (e.status === 413 ? e.message : UPLOAD_FAILED))
          : `Upload failed: ${e.message || 'Unknown error'}`;
      setStatus({ state: 'failed', fileName, message });
    }
  }

  return { status, upload, clear: () => setStatus(null) };
}
