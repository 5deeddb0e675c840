import { useEffect, useState } from 'react';
import { useLocaleState } from 'react-admin';
import { api } from '../api/http';

/** The site's languages (CAL_LANGUAGES), read once from the REST index, which names them. */
let known: Promise<string[]> | null = null;

function siteLanguages(): Promise<string[]> {
  known ??= api<{ languages?: string[] }>('/', { query: { _fields: 'languages' } })
    .then(({ json }) => json.languages ?? [])
    .catch(() => {
      known = null;
      return [];
    });
  return known;
}

/** The site's languages as choices, each named in the reader's language ("fr" → "French"). */
export function useLanguageChoices(): { id: string; name: string }[] {
  const [codes, setCodes] = useState<string[]>([]);
  const [locale] = useLocaleState();
  useEffect(() => {
    let live = true;
    void siteLanguages().then((value) => live && setCodes(value));
    return () => {
      live = false;
    };
  }, []);
  const names = new Intl.DisplayNames([locale], { type: 'language' });
  return codes.map((code) => ({ id: code, name: `${names.of(code) ?? code} (${code})` }));
}
