import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminOverviewResponse } from '@inkwell/contract';
import { callsTo, json, mockFetch, renderWithProviders, signIn } from '../../../test/utils';
import { ServiceStatus } from './ServiceStatus';

const overview = (model: Partial<AdminOverviewResponse['model']>): AdminOverviewResponse => ({
  registration: { mode: 'open', domains: [] },
  model: {
    available: false,
    state: 'unavailable',
    progress: null,
    name: 'llama:small.gguf',
    reason: null,
    detail: null,
    next_retry_at: null,
    last_ok_at: null,
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

  it('shows how far the search index is, with the files that have vectors', () => {
    render(
      <ServiceStatus
        overview={{
          ...overview({ state: 'ready', available: true }),
          search_index: {
            files: 1576,
            searchable: 1480,
            unreadable: 12,
            reading: 84,
            with_vectors: 900,
          },
        }}
      />,
    );
    expect(
      screen.getByText(
        '1,480 of 1,576 files searchable, 84 being read, 12 unreadable, 900 with vectors for meaning',
      ),
    ).toBeInTheDocument();
  });

  it('says the model is loading', () => {
    render(<ServiceStatus overview={overview({ state: 'loading' })} />);
    expect(screen.getByText('llama:small.gguf: loading')).toBeInTheDocument();
  });

  it('shows a ready model with the calls waiting for it, and no retry', () => {
    render(<ServiceStatus overview={overview({ state: 'ready', available: true, queued: 3 })} />);
    expect(screen.getByText('llama:small.gguf: ready, 3 call(s) waiting')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry now' })).toBeNull();
  });

  it('tells the operator why an unreachable model fails, when it answered last, and retries now', async () => {
    signIn('Ada');
    const fetchMock = mockFetch((req) =>
      req.path === 'admin/model/retry'
        ? json(200, { retried: true, model: overview({ state: 'unreachable' }).model })
        : undefined,
    );
    renderWithProviders(
      <ServiceStatus
        overview={overview({
          name: 'openai:m@http://10.0.0.5/v1',
          state: 'unreachable',
          detail: 'the AI server at http://10.0.0.5/v1 cannot be reached; check AI_BASE_URL',
          last_ok_at: '2026-01-02T10:00:00.000Z',
          next_retry_at: '2026-01-02T10:05:00.000Z',
        })}
      />,
    );
    expect(screen.getByText('openai:m@http://10.0.0.5/v1: unreachable')).toBeInTheDocument();
    expect(screen.getByText(/cannot be reached; check AI_BASE_URL/)).toBeInTheDocument();
    expect(screen.getByText('Model server last answered')).toBeInTheDocument();
    expect(screen.getByText('Next attempt')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry now' }));
    expect(await screen.findByText('Trying again now.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'admin/model/retry')[0]?.[1]?.method).toBe('POST');
  });
});
