import { inviteResponseSchema, type InviteRequest, type InviteResponse } from '@inkwell/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/admin/invitations: mails a single-use sign-up link and answers it too. */
export function sendInvitation(body: InviteRequest): Promise<InviteResponse> {
  return apiRequest('admin/invitations', { method: 'POST', body, schema: inviteResponseSchema });
}

export function useSendInvitation() {
  return useMutation({ mutationFn: sendInvitation });
}
