import { QueryClient } from "@tanstack/react-query";
import { getQueryFn } from "./api-client";

/**
 * §7 defaults: no retries, data never stale, no refetch on window focus, no polling, and the
 * default query function fails on 401.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: "throw" }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}

/** The application's single query client. */
export const queryClient = createQueryClient();
