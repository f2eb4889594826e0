import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createLanguageModel } from '../features/ai/create-model';
import { instrumentModel } from '../features/ai/instrumented-model';
import type { LanguageModel } from '../features/ai/language-model';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared language model (see features/ai). `app.ai.status()` tells whether it is ready. */
    ai: LanguageModel;
  }
}

/** Decorates `app.ai` with the configured provider; it is closed (model freed) when the app closes. */
async function aiPlugin(app: FastifyInstance) {
  const model = await createLanguageModel(app.config, app.log);
  app.decorate('ai', instrumentModel(model, app.metrics));
  app.addHook('onClose', () => app.ai.close());
}

export default fp(aiPlugin, { name: 'ai', dependencies: ['metrics'] });
