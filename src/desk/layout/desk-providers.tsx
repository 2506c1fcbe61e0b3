import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense, use, useState, type ReactNode } from 'react';
import { useSessionSync } from '../api/session.ts';
import { SupabaseContext, SupabaseSettingsContext } from '../api/supabase-context.ts';
import { loadSupabase } from '../api/supabase-client.ts';
import { PageLoading } from '../../ui/page-loading.tsx';

// React Query and the Supabase client exist for Survey Desk only: the desk layout renders this,
// so both libraries land in desk chunks and the public pages never load them.

function SessionSync({ children }: { children: ReactNode }) {
  useSessionSync();
  return children;
}

function WithSupabase({ children }: { children: ReactNode }) {
  // A failed configuration fetch throws to the route's error page (German, with a reload button).
  const { client, settings } = use(loadSupabase());
  return (
    <SupabaseContext value={client}>
      <SupabaseSettingsContext value={settings}>
        <SessionSync>{children}</SessionSync>
      </SupabaseSettingsContext>
    </SupabaseContext>
  );
}

export function DeskProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: 30_000, refetchOnWindowFocus: true } },
      }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <Suspense fallback={<PageLoading />}>
        <WithSupabase>{children}</WithSupabase>
      </Suspense>
    </QueryClientProvider>
  );
}
