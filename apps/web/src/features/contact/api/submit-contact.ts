import type { ContactRequest, MessageResponse } from '@inkwell/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/contact; status 200 is success. */
export function submitContact(body: ContactRequest): Promise<MessageResponse | undefined> {
  return apiRequest('contact', { method: 'POST', body, auth: false });
}

export function useSubmitContact() {
  return useMutation({ mutationFn: submitContact });
}
