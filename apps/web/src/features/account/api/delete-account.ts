import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

import type { DeleteAccountRequest } from '@inkwell/contract';

/** The password is sent again: the server checks it, as the email change does. */
export async function deleteAccount(body: DeleteAccountRequest): Promise<void> {
  await apiRequest('delete_account', { method: 'DELETE', body });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
