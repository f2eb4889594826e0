import { useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { getRouterBasename } from '../lib/base-path';
import { createQueryClient } from '../lib/query-client';
import { ColorModeProvider } from '../theme/color-mode';
import { AppRoutes } from './routes';
import { UiStateProvider } from './ui-state';

/** Providers shared by the app and by tests that render whole routes. */
export function AppProviders({
  children,
  queryClient,
}: {
  children: ReactNode;
  queryClient: QueryClient;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <ColorModeProvider>
        <UiStateProvider>{children}</UiStateProvider>
      </ColorModeProvider>
    </QueryClientProvider>
  );
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <AppProviders queryClient={queryClient}>
      <BrowserRouter basename={getRouterBasename()}>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
