import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { ADMIN_NAMESPACE } from '../../http/context.js';
import { rootPathOf } from '../../http/languages.js';
import { escapeHtml } from '../../lib/html.js';
import { pagePaths } from '../pages/page.links.js';
import {
  readSitemapKeyAfter,
  readSitemapRows,
  readSitemapTranslations,
  SITEMAP_SOURCES,
  type SitemapKey,
  type SitemapRow,
  type SitemapSource,
} from './sitemap.repository.js';

/**
 * robots.txt and the sitemaps (sitemaps.org 0.9): an index at /sitemap.xml naming, per site
 * language, files of at most `pageSize` addresses each (CAL_SITEMAP_PAGE_SIZE; the protocol's
 * limits are 50,000 addresses and 50 MB a file): first the views' home pages, then the published
 * listed events, the venues, organizers, categories and tags, each in its index's order, with
 * their last modification and their translations (xhtml:link alternates).
 *
 * A file is a keyset range of its index: the index of files is made by stepping from each file's
 * first key to the next one (`pageSize` index entries a step), once per data version and language
 * (kept in memory here), and a file reads its `pageSize` rows from its first key. Both answers go
 * through the page cache (ETag, Last-Modified, 304), whose keys hold the data version.
 */

/** A file: the views' home pages, or a source's rows from a key on. */
type Part = { source: 'views' } | { source: SitemapSource; from: SitemapKey };

/** Translation groups read per statement: an IN list the planners serve from the trid index. */
const TRID_BATCH = 500;
/** Plans kept: a few data versions of every language. */
const MAX_PLANS = 64;

const XMLNS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const XHTML = 'xmlns:xhtml="http://www.w3.org/1999/xhtml"';

/** W3C datetime of a UTC `YYYY-MM-DD HH:MM:SS`, or null for anything else. */
function lastmodOf(modified: string | null): string | null {
  const match = modified === null ? null : /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})/.exec(modified);
  return match ? `${match[1]}T${match[2]}Z` : null;
}

const xml = (text: string): string => escapeHtml(text);

interface Entry {
  loc: string;
  lastmod: string | null;
  /** The address in each language, this one's included; empty when there is no other. */
  alternates: { lang: string; href: string }[];
}

function urlElement(entry: Entry): string {
  const lastmod = entry.lastmod === null ? '' : `<lastmod>${entry.lastmod}</lastmod>`;
  const links = entry.alternates
    .map((alt) => `<xhtml:link rel="alternate" hreflang="${alt.lang}" href="${xml(alt.href)}"/>`)
    .join('');
  return `<url><loc>${xml(entry.loc)}</loc>${lastmod}${links}</url>\n`;
}

export class SitemapService {
  private readonly plans = new Map<string, Promise<Part[]>>();

  constructor(
    private readonly db: Db,
    private readonly config: Config,
  ) {}

  /** robots.txt: the pages open to every crawler, the admin and the API's administration closed. */
  robots(site: string): string {
    const closed = [
      '/admin/',
      ...this.config.languages.map((lang) => `${rootPathOf(this.config, lang)}${ADMIN_NAMESPACE}/`),
    ];
    return [
      'User-agent: *',
      'Allow: /',
      ...closed.map((path) => `Disallow: ${path}`),
      '',
      `Sitemap: ${site}/sitemap.xml`,
      '',
    ].join('\n');
  }

  /** The sitemap index: every language's files. */
  async index(version: string, site: string): Promise<string> {
    const files: string[] = [];
    for (const lang of this.config.languages) {
      const plan = await this.plan(version, lang);
      for (let n = 1; n <= plan.length; n += 1)
        files.push(`<sitemap><loc>${xml(`${site}/sitemap-${lang}-${n}.xml`)}</loc></sitemap>\n`);
    }
    return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex ${XMLNS}>\n${files.join('')}</sitemapindex>\n`;
  }

  /** File `n` (from 1) of a language, or null when there is no such file. */
  async file(version: string, site: string, lang: string, n: number): Promise<string | null> {
    if (!this.config.languages.includes(lang)) return null;
    const part = (await this.plan(version, lang))[n - 1];
    if (part === undefined) return null;
    const entries = part.source === 'views' ? this.views(site, lang) : await this.records(site, lang, part);
    return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${XMLNS} ${XHTML}>\n${entries.map(urlElement).join('')}</urlset>\n`;
  }

  private pathOf(lang: string) {
    return pagePaths(rootPathOf(this.config, lang));
  }

  /** The views' home pages, each in every language. */
  private views(site: string, lang: string): Entry[] {
    const views = ['month', 'week', 'list', 'photo', 'map'] as const;
    return views.map((view) => ({
      loc: `${site}${this.pathOf(lang)[view]()}`,
      lastmod: null,
      alternates:
        this.config.languages.length > 1
          ? this.config.languages.map((other) => ({ lang: other, href: `${site}${this.pathOf(other)[view]()}` }))
          : [],
    }));
  }

  private async records(
    site: string,
    lang: string,
    part: { source: SitemapSource; from: SitemapKey },
  ): Promise<Entry[]> {
    const { source } = part;
    const rows = await readSitemapRows(this.db, source, lang, part.from, this.config.sitemapPageSize);
    const translations = new Map<number, { lang: string; slug: string }[]>();
    const trids = [...new Set(rows.map((row) => row.trid))];
    for (let i = 0; i < trids.length; i += TRID_BATCH) {
      for (const t of await readSitemapTranslations(this.db, source, trids.slice(i, i + TRID_BATCH), lang)) {
        const group = translations.get(t.trid) ?? [];
        group.push(t);
        translations.set(t.trid, group);
      }
    }
    const href = (l: string, slug: string) => `${site}${this.pathOf(l)[source](slug)}`;
    return rows.map((row: SitemapRow) => {
      const others = (translations.get(row.trid) ?? []).filter((t) => this.config.languages.includes(t.lang));
      return {
        loc: href(lang, row.slug),
        lastmod: lastmodOf(row.modified),
        alternates:
          others.length === 0
            ? []
            : [{ lang, slug: row.slug }, ...others].map((t) => ({ lang: t.lang, href: href(t.lang, t.slug) })),
      };
    });
  }

  /** The files of a language at a data version, made once and kept (the newest plans). */
  private plan(version: string, lang: string): Promise<Part[]> {
    const key = `${version}\n${lang}`;
    let plan = this.plans.get(key);
    if (plan === undefined) {
      plan = this.makePlan(lang);
      // A failed read is not kept: the next request tries again.
      plan.catch(() => this.plans.delete(key));
      this.plans.set(key, plan);
      while (this.plans.size > MAX_PLANS) this.plans.delete(this.plans.keys().next().value!);
    }
    return plan;
  }

  private async makePlan(lang: string): Promise<Part[]> {
    const parts: Part[] = [{ source: 'views' }];
    const size = this.config.sitemapPageSize;
    for (const source of SITEMAP_SOURCES) {
      let from = await readSitemapKeyAfter(this.db, source, lang, null, 0);
      while (from !== null) {
        parts.push({ source, from });
        from = await readSitemapKeyAfter(this.db, source, lang, from, size);
      }
    }
    return parts;
  }
}
