import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { TreeTerm } from './categoryTree';

const PAGE = 100;
/** A site with more categories than this is not one a tree on one screen serves; the rest are not read. */
const MOST_PAGES = 50;

/**
 * Every category of one language, empty ones included (the API hides them by default), read a
 * page of 100 at a time through the data provider, as a client would: a tree needs them all.
 */
export function useAllTerms(resource: string, language: string | undefined) {
  const dataProvider = useDataProvider();
  return useQuery({
    queryKey: [resource, 'getAll', language ?? ''],
    queryFn: async ({ signal }) => {
      const rows: TreeTerm[] = [];
      for (let page = 1; page <= MOST_PAGES; page++) {
        const { data, total } = await dataProvider.getList<TreeTerm & { id: number }>(resource, {
          pagination: { page, perPage: PAGE },
          sort: { field: 'name', order: 'ASC' },
          filter: language ? { i18n_language: language } : {},
          meta: { query: { hide_empty: false } },
          signal,
        });
        rows.push(...data);
        if (data.length < PAGE || rows.length >= (total ?? 0)) break;
      }
      return rows;
    },
  });
}
