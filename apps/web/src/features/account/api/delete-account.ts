import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export async function deleteAccount(): Promise<void> {
  await apiRequest('delete_account', { method: 'DELETE' });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
