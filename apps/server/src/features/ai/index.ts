// The AI room's public face: the model contract other features call, the wiring that builds the
// model (plugins/ai.ts), its status route, and the token estimate. Its rooms (engine/llama,
// engine/openai, scheduling) are reached only through here.
export {
  assertModelUsable,
  generate,
  ModelUnavailableError,
  modelUsable,
  promptTokens,
  type CallPriority,
  type ChatTurn,
  type GenerateOptions,
  type LanguageModel,
  type ModelState,
  type ModelStatus,
  type SlotCall,
  type WorkHandle,
} from './language-model';
export { createLanguageModel } from './create-model';
export { instrumentModel } from './instrumented-model';
export { UnavailableModel } from './unavailable-model';
export { publicReason, toAiStatus } from './ai-status';
export { aiRoutes } from './ai.routes';
export { ScheduledModel } from './scheduling/scheduled-model';
export { SharedSlots } from './scheduling/shared-slots';
export { WorkProgress, type PlannedCalls } from './scheduling/work-progress';
export { workHeading } from './scheduling/work-heading';
export { estimateTokens } from '../../lib/token-estimate';
// The tiny generated GGUF, for tests that run the embedded engine end to end.
export { ensureTinyGguf, writeTinyGguf } from './engine/llama/tiny-gguf';
