import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminOverviewResponse } from '@inkwell/contract';
import { ServiceStatus } from './ServiceStatus';

const overview = (model: Partial<AdminOverviewResponse['model']>): AdminOverviewResponse => ({
  registration: { mode: 'open', domains: [] },
  model: {
    available: false,
    state: 'unavailable',
    progress: null,
    name: 'llama:small.gguf',
    reason: null,
    queued: 0,
    ...model,
  },
  alert: { message: '', severity: 'info', isVisible: false },
  prompt_limit: 20,
});

describe('ServiceStatus', () => {
  it('shows the download percentage while the model downloads', () => {
    render(<ServiceStatus overview={overview({ state: 'downloading', progress: 45 })} />);
    expect(screen.getByText('llama:small.gguf: downloading (45 %)')).toBeInTheDocument();
  });

  it('says the model is loading', () => {
    render(<ServiceStatus overview={overview({ state: 'loading' })} />);
    expect(screen.getByText('llama:small.gguf: loading')).toBeInTheDocument();
  });

  it('shows a ready model with the calls waiting for it', () => {
    render(<ServiceStatus overview={overview({ state: 'ready', available: true, queued: 3 })} />);
    expect(screen.getByText('llama:small.gguf: ready, 3 call(s) waiting')).toBeInTheDocument();
  });
});
