import sanitizeHtml from 'sanitize-html';

// Block-level elements, after WordPress wpautop's list: text starting or ending with one of these
// is already structured HTML and must not be wrapped in <p>.
const BLOCK_TAGS =
  'address|article|aside|blockquote|caption|col|colgroup|dd|details|div|dl|dt|fieldset|figcaption|figure|' +
  'footer|form|h[1-6]|header|hgroup|hr|li|map|menu|nav|ol|p|pre|section|summary|table|tbody|td|tfoot|th|thead|tr|ul';
const STARTS_WITH_BLOCK = new RegExp(`^</?(?:${BLOCK_TAGS})\\b`, 'i');
const BLOCK_TAG = new RegExp(`</?(?:${BLOCK_TAGS})\\b`, 'i');

/**
 * Whether the text ends with a block tag (`<p …>`, `</div>`). A pattern ending in `[^>]*>$` retried
 * from every `<p` of the text, quadratic in a run of them (40 KB took 0.65 s); the tag can only
 * start after the last `>` but one, so only that tail is searched.
 */
function endsWithBlock(text: string): boolean {
  if (!text.endsWith('>')) return false;
  return BLOCK_TAG.test(text.slice(text.lastIndexOf('>', text.length - 2) + 1));
}

/** WordPress wpautop-lite: blank lines separate paragraphs, single newlines become <br />. */
export function autop(text: string): string {
  const normalized = text.replace(/\r\n?/g, '\n').trim();
  // Content wrapped in blocks is kept byte for byte, including blank lines inside <pre> or <div>.
  if (STARTS_WITH_BLOCK.test(normalized) && endsWithBlock(normalized)) return normalized;
  return normalized
    .split(/\n[ \t]*\n/)
    .map((chunk) => chunk.trim())
    .filter((chunk) => chunk !== '')
    .map((chunk) => (isBlockChunk(chunk) ? chunk : `<p>${chunk.replace(/\n/g, '<br />\n')}</p>`))
    .join('\n');
}

// Either end is enough: wrapping "<p>a</p>\nb" would nest a block inside <p>.
function isBlockChunk(chunk: string): boolean {
  return STARTS_WITH_BLOCK.test(chunk) || endsWithBlock(chunk);
}

/**
 * Hosts whose players may be embedded in a description: video and maps, each in a sandboxed frame
 * that cannot reach this site's pages (a frame of another origin never can) nor navigate the page
 * that shows it. The pages' Content-Security-Policy names the same hosts in `frame-src`.
 */
export const EMBED_HOSTS = [
  'www.youtube.com',
  'www.youtube-nocookie.com',
  'player.vimeo.com',
  'www.openstreetmap.org',
] as const;
const EMBED_SANDBOX = 'allow-scripts allow-same-origin allow-presentation allow-popups';

/**
 * The one policy every description and excerpt goes through, whoever writes it (WordPress trusts
 * editors with `unfiltered_html`; here an editor's script would run in an administrator's browser,
 * so nobody's does). Rich formatting stays: headings, lists, quotes, tables, figures, links,
 * images, audio and video over https and the embeds above; script, styles, forms, event handlers
 * and `javascript:` go.
 */
const POLICY: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'a',
    'strong',
    'em',
    'b',
    'i',
    'u',
    's',
    'del',
    'ins',
    'mark',
    'small',
    'sub',
    'sup',
    'abbr',
    'cite',
    'q',
    'time',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'blockquote',
    'br',
    'hr',
    'img',
    'figure',
    'figcaption',
    'span',
    'div',
    'code',
    'pre',
    'table',
    'caption',
    'colgroup',
    'col',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'iframe',
    'video',
    'audio',
    'source',
    'track',
  ],
  allowedAttributes: {
    // `class` keeps WordPress blocks' layout (`wp-block-columns`); with no script on the pages and
    // `style-src 'self'`, a class can only pick one of the site's own styles.
    '*': ['title', 'lang', 'dir', 'class'],
    // Anchors within a description (`#programme`).
    ...Object.fromEntries(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((h) => [h, ['id']])),
    a: ['href', 'target', 'rel', 'hreflang', 'id'],
    video: ['src', 'poster', 'controls', 'width', 'height', 'preload', 'loop', 'muted', 'playsinline'],
    audio: ['src', 'controls', 'preload', 'loop', 'muted'],
    source: ['src', 'type', 'media'],
    track: ['src', 'kind', 'srclang', 'label', 'default'],
    img: ['src', 'alt', 'width', 'height', 'loading'],
    ol: ['start', 'reversed', 'type'],
    li: ['value'],
    abbr: ['title'],
    time: ['datetime'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    col: ['span'],
    colgroup: ['span'],
    iframe: ['src', 'width', 'height', 'allow', 'allowfullscreen', 'sandbox', 'loading', 'referrerpolicy'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: {
    img: ['http', 'https', 'data'],
    iframe: ['https'],
    video: ['https'],
    audio: ['https'],
    source: ['https'],
    track: ['https'],
  },
  allowProtocolRelative: false,
  // Void elements written as such (`<track … />`), not given an end tag browsers would ignore.
  selfClosing: [...sanitizeHtml.defaults.selfClosing, 'source', 'track', 'col', 'wbr'],
  allowedIframeHostnames: [...EMBED_HOSTS],
  // Drop these elements with their content; by default only the tags would go and their text remain.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'object', 'embed', 'template', 'svg', 'math'],
  // An embed of another host (or with no address left) goes whole, with its fallback text.
  exclusiveFilter: (frame) => frame.tag === 'iframe' && !frame.attribs['src'],
  transformTags: {
    // sanitize-html allows schemes per tag, not per media type: only inline images may use data:.
    img: (tagName, attribs) => {
      const { src, ...rest } = attribs;
      const unsafeData =
        src !== undefined && /^\s*data:/i.test(src) && !/^\s*data:image\/(?:png|jpeg|gif|webp|avif)[;,]/i.test(src);
      return { tagName, attribs: unsafeData ? rest : attribs };
    },
    // A link that opens a new window must not hand it this page (window.opener).
    a: (tagName, attribs) =>
      attribs['target'] ? { tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } } : { tagName, attribs },
    // Whatever the author wrote, an embed gets our sandbox and sends no referrer.
    iframe: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, sandbox: EMBED_SANDBOX, loading: 'lazy', referrerpolicy: 'no-referrer' },
    }),
  },
};

/**
 * Deepest nesting an HTML text may have before it is read as plain text. htmlparser2 keeps its open
 * elements in an array it shifts at every tag, so its time grows with the square of the nesting
 * (100,000 unclosed `<b>` took 7 s, a 1 MiB body a minute and a half); real content nests a few
 * dozen levels at most.
 */
export const MAX_NESTING = 256;

// The parser's own rules (htmlparser2's Parser: voidElements, openImpliesClose), so the depth
// counted is the depth it reaches: an element it never keeps open, or that an opening tag closes
// for it, does not count; everything else does.
const VOID = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
const P = ['p'];
const FORM = ['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea'];
const IMPLIES_CLOSE = new Map<string, ReadonlySet<string>>(
  (
    [
      ['tr', ['tr', 'th', 'td']],
      ['th', ['th']],
      ['td', ['thead', 'th', 'td']],
      ['body', ['head', 'link', 'script']],
      ['li', ['li']],
      ['option', ['option']],
      ['optgroup', ['optgroup', 'option']],
      ['dd', ['dd', 'dt']],
      ['dt', ['dd', 'dt']],
      ['rt', ['rt', 'rp']],
      ['rp', ['rt', 'rp']],
      ['tbody', ['thead', 'tbody']],
      ['tfoot', ['thead', 'tbody']],
      ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((name) => [name, FORM] as const),
      ...[
        'p',
        'h1',
        'h2',
        'h3',
        'h4',
        'h5',
        'h6',
        'address',
        'article',
        'aside',
        'blockquote',
        'details',
        'div',
        'dl',
        'fieldset',
        'figcaption',
        'figure',
        'footer',
        'form',
        'header',
        'hr',
        'main',
        'nav',
        'ol',
        'pre',
        'section',
        'table',
        'ul',
      ].map((name) => [name, P] as const),
    ] as const
  ).map(([name, closes]) => [name, new Set<string>(closes)]),
);
// Only the start of a tag: what follows it (attributes, quotes holding `<`, `/>`) cannot make it
// any less open, as the parser opens an element for `<b/>` and `<b x="<">` alike.
const TAG_START = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)/g;

/**
 * The greatest depth of open elements in `html`, as the parser keeps them, or more: every tag
 * start opens an element unless it is void, an opening tag closes what the parser's rules say it
 * closes, and an end tag closes up to the last open element of its name (ignored when there is
 * none). One pass, with a count per name, so it stays linear however the tags are nested,
 * mismatched or disguised.
 */
export function nestingDepth(html: string): number {
  const stack: string[] = [];
  const open = new Map<string, number>();
  let deepest = 0;
  const pop = (): string | undefined => {
    const top = stack.pop();
    if (top !== undefined) open.set(top, open.get(top)! - 1);
    return top;
  };
  for (const [, closing, rawName] of html.matchAll(TAG_START)) {
    const name = rawName!.toLowerCase();
    if (closing) {
      if (open.get(name)) while (pop() !== name);
      continue;
    }
    const closes = IMPLIES_CLOSE.get(name);
    while (closes && stack.length > 0 && closes.has(stack[stack.length - 1]!)) pop();
    if (VOID.has(name)) continue;
    stack.push(name);
    open.set(name, (open.get(name) ?? 0) + 1);
    deepest = Math.max(deepest, stack.length);
  }
  return deepest;
}

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** `text` as HTML text: nothing in it is markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => TEXT_ESCAPES[c]!);
}

/**
 * The site's one HTML sanitizer: keeps formatting HTML and removes anything that can run script.
 * A text nested deeper than {@link MAX_NESTING} is no document anyone wrote: it is kept as text,
 * escaped, rather than handed to a parser that would take minutes over it.
 */
export function sanitizeRichText(html: string): string {
  // Plain text (most descriptions) comes out of the sanitizer unchanged: no need to parse it.
  if (!/[<>&]/.test(html)) return html;
  if (nestingDepth(html) > MAX_NESTING) return escapeHtml(html);
  return sanitizeHtml(html, POLICY);
}

const TEXT_ONLY: sanitizeHtml.IOptions = { allowedTags: [], allowedAttributes: {} };
const ESCAPED: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };

/**
 * Plain text content of an HTML fragment (script/style content dropped), entities decoded.
 * The result is text, not HTML: escape it before putting it into markup.
 */
export function stripTags(html: string): string {
  // Stored HTML went through sanitizeRichText, which escapes what nests too deep; other callers'
  // text is checked the same way, for the same reason.
  if (nestingDepth(html) > MAX_NESTING) return html.replace(/<[^<>]*>/g, '');
  // sanitize-html decodes all entities while parsing and re-escapes only these three on output.
  return sanitizeHtml(html, TEXT_ONLY)
    .replace(/&(?:amp|lt|gt);/g, (entity) => ESCAPED[entity])
    .trim();
}
