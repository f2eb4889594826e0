import {
  adminContactMessagesResponseSchema,
  type AdminContactMessagesResponse,
} from '@inkwell/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/admin/contact-messages: the contact form's messages, newest first. */
export function getContactMessages(): Promise<AdminContactMessagesResponse> {
  return apiRequest('admin/contact-messages', { schema: adminContactMessagesResponseSchema });
}

export function useContactMessages() {
  return useQuery({ queryKey: ['admin', 'contact-messages'], queryFn: getContactMessages });
}
