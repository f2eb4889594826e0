import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { validateUpload } from '../../../lib/validate-upload';
import { uploadFile } from '../api/upload-file';
import type { UploadStatus } from '../components/UploadStatusList';

export const UPLOAD_FAILED = 'Failed to upload file.';

/**
 * Uploads the files picked together, one after the other, each with its status (spec §5 checks
 * first, then the progress, then §8 messages). A new pick replaces the last one's statuses.
 */
export function useUpload() {
  const [statuses, setStatuses] = useState<UploadStatus[]>([]);
  const queryClient = useQueryClient();

  async function upload(files: File[]) {
    const set = (i: number, status: UploadStatus) =>
      setStatuses((all) => all.map((s, j) => (j === i ? status : s)));
    setStatuses(files.map((f) => ({ state: 'uploading', fileName: f.name, percent: 0 })));
    for (const [i, file] of files.entries()) {
      const fileName = file.name;
      const problem = validateUpload(file);
      if (problem) {
        set(i, { state: 'failed', fileName, message: problem });
        continue;
      }
      try {
        const result = await uploadFile(file, (percent) =>
          set(i, { state: 'uploading', fileName, percent }),
        );
        set(i, { state: 'done', fileName, message: result.message });
        await queryClient.invalidateQueries({ queryKey: ['files'] });
      } catch (err) {
        const e = err as ApiError;
        const message =
          e instanceof ApiError && e.status !== null
            ? (e.serverMessage ?? (e.status === 413 ? e.message : UPLOAD_FAILED))
            : `Upload failed: ${e.message || 'Unknown error'}`;
        set(i, { state: 'failed', fileName, message });
      }
    }
  }

  return {
    statuses,
    upload,
    dismiss: (index: number) => setStatuses((all) => all.filter((_s, j) => j !== index)),
  };
}
