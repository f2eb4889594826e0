import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { downloadBlob } from '../../../lib/download-blob';

export const USER_DATA_FILE_NAME = 'user_data.csv';

/** GET /api/data-portability: a CSV of everything held about the user, saved as user_data.csv. */
export async function downloadUserData(): Promise<void> {
  const blob = await apiRequest<Blob>('data-portability', { responseType: 'blob' });
  downloadBlob(blob, USER_DATA_FILE_NAME);
}

export function useDownloadUserData() {
  return useMutation({ mutationFn: downloadUserData });
}
