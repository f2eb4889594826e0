export { chatRoutes } from './chat.routes';
export { LiveReplies } from './live-replies';
export { chatAccountCleanup } from './chat-account-cleanup';
// The daily prompt counter, for prompts other features send (questions across files).
import { chatRepo } from './chat.repo';
export const reservePrompt = chatRepo.reservePrompt.bind(chatRepo);
export const releasePrompt = chatRepo.releasePrompt;
