import { useCallback, useEffect, useState } from 'react';
import { useLogout } from 'react-admin';
import { api, type Query } from '../api/http';

/**
 * One GET of the REST API for the parts of a screen that are not a react-admin resource
 * (application passwords, sessions, deliveries): its answer, its error, and a way to read again.
 * A 401 (the session ended elsewhere) signs out, as the data provider's errors do.
 */
export function useApiData<T>(path: string | null, query?: Query) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<Error | null>(null);
  const [loading, setLoading] = useState(path !== null);
  const [version, setVersion] = useState(0);
  const logout = useLogout();
  const queryKey = JSON.stringify(query ?? {});

  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    setLoading(true);
    api<T>(path, { query: JSON.parse(queryKey) as Query, signal: controller.signal })
      .then(({ json }) => {
        setData(json);
        setError(null);
      })
      .catch((e: Error & { status?: number }) => {
        if (controller.signal.aborted) return;
        if (e.status === 401) void logout();
        setError(e);
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [path, queryKey, version, logout]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, error, loading, reload };
}
