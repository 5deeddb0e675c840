/** Where an import read from, as its stored options say (a REST root, a feed URL, or an uploaded file's name). */
export function sourceOf(options: Record<string, unknown> | undefined): string {
  const value = options?.['from'] ?? options?.['ics'] ?? options?.['icsUpload'];
  return typeof value === 'string' ? value : '';
}

export interface KindProgress {
  done: number;
  total: number;
}

export interface Counts {
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  gone: number;
}

export interface ImportReport {
  source: string;
  dry_run: boolean;
  seconds: number;
  rate: number;
  counts: Record<string, Record<string, Counts>>;
  skipped: { kind: string; sourceId: string; lang: string; reason: string }[];
  gone: { kind: string; sourceId: string; lang: string; localId: number; pruned: boolean }[];
  missing_links: { kind: string; sourceId: string; lang: string; links: string[] }[];
  warnings: string[];
}

export interface ImportJob {
  id: number;
  status: 'running' | 'done' | 'failed';
  options: Record<string, unknown>;
  progress: Record<string, KindProgress>;
  report: ImportReport | null;
  error: string | null;
  user_id: number;
  started: string;
  finished: string | null;
}

/** The importer's order: linked records before what links to them. */
export const KINDS = ['category', 'tag', 'venue', 'organizer', 'event'] as const;
