import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  createLanguageModel,
  instrumentModel,
  ScheduledModel,
  SharedSlots,
  WorkProgress,
  type LanguageModel,
} from '../features/ai';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The shared language model (see features/ai), behind the scheduler: every model call of every
     * feature goes through it. `app.ai.status()` tells whether it is ready and how many calls wait.
     */
    ai: LanguageModel;
    /** A progress tracker for one long piece of AI work, with the model's measured speed. */
    newWorkProgress(): WorkProgress;
  }
}

/** Decorates `app.ai` with the configured provider; it is closed (model freed) when the app closes. */
async function aiPlugin(app: FastifyInstance) {
  const { config, metrics } = app;
  const created = await createLanguageModel(config, app.log);
  const provider = instrumentModel(created.model, metrics);
  const model = new ScheduledModel(provider, {
    // The scheduler must own the order: never more calls than the model runs at once.
    capacity: created.capacity,
    // One model server behind several processes (PostgreSQL): its slots are shared through the
    // database. The embedded model is each process's own.
    shared:
      config.AI_BASE_URL && app.dialect === 'postgres'
        ? new SharedSlots(app.db, created.capacity)
        : undefined,
    preempt: config.AI_PREEMPT,
    // A model server's slots on one processor; the embedded engine orders its own decodes.
    yieldToPeople: Boolean(config.AI_BASE_URL) && config.AI_YIELD_TO_PEOPLE,
    loadWaitMs: config.AI_LOAD_WAIT_MS,
    onPreempted: (ms) => {
      metrics.modelPreemptions.inc();
      metrics.modelPreemptedSeconds.inc(ms / 1000);
    },
  });
  metrics.setModelCalls(() => ({
    waiting: model.scheduler.waiting,
    running: model.scheduler.busy,
  }));
  app.decorate('ai', model);
  const estimates = model.estimator.workEstimates(model.scheduler.capacity);
  app.decorate('newWorkProgress', () => new WorkProgress(estimates));
  app.addHook('onClose', () => app.ai.close());
}

export default fp(aiPlugin, { name: 'ai', dependencies: ['metrics', 'db'] });
