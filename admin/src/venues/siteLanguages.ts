import { useQuery } from '@tanstack/react-query';
import { api } from '../api/http';

export interface SiteLanguages {
  /** The site's languages, the default one first as the service lists them. */
  languages: string[];
  defaultLanguage: string;
}

interface RestIndex {
  languages?: string[];
  language?: string;
}

/**
 * The site's languages come from the REST index (`GET /`), as any client would learn them; the
 * language the index answers in is the default one, since the admin asks through the default root.
 */
export function useSiteLanguages(): SiteLanguages {
  const { data } = useQuery({
    queryKey: ['cal', 'site-languages'],
    queryFn: async () => (await api<RestIndex>('/', { query: { _fields: 'languages,language' } })).json,
    staleTime: Infinity,
  });
  const languages = data?.languages ?? [];
  return { languages, defaultLanguage: data?.language ?? languages[0] ?? 'en' };
}

/** The language's own name in the reader's language ("fr" → "French", "français"…). */
export function languageName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}
