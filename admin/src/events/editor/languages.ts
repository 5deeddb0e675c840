import { useEffect, useState } from 'react';
import { api } from '../../api/http';

let known: Promise<string[]> | null = null;

/** The site's languages, from the public REST index (`languages`). */
export function siteLanguages(): Promise<string[]> {
  known ??= api<{ languages?: string[] }>('/')
    .then(({ json }) => (Array.isArray(json?.languages) ? json.languages : []))
    .catch(() => {
      known = null;
      return [];
    });
  return known;
}

export function useSiteLanguages(): string[] {
  const [languages, setLanguages] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    void siteLanguages().then((value) => live && setLanguages(value));
    return () => {
      live = false;
    };
  }, []);
  return languages;
}

/** A language's own name in the reader's language ("French", "français"…), or its code. */
export function languageName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}
