import sanitizeHtml from 'sanitize-html';

// Block-level elements, after WordPress wpautop's list: text starting or ending with one of these
// is already structured HTML and must not be wrapped in <p>.
const BLOCK_TAGS =
  'address|article|aside|blockquote|caption|col|colgroup|dd|details|div|dl|dt|fieldset|figcaption|figure|' +
  'footer|form|h[1-6]|header|hgroup|hr|li|map|menu|nav|ol|p|pre|section|summary|table|tbody|td|tfoot|th|thead|tr|ul';
const STARTS_WITH_BLOCK = new RegExp(`^</?(?:${BLOCK_TAGS})\\b`, 'i');
const ENDS_WITH_BLOCK = new RegExp(`</?(?:${BLOCK_TAGS})\\b[^>]*>$`, 'i');

/** WordPress wpautop-lite: blank lines separate paragraphs, single newlines become <br />. */
export function autop(text: string): string {
  const normalized = text.replace(/\r\n?/g, '\n').trim();
  // Content wrapped in blocks is kept byte for byte, including blank lines inside <pre> or <div>.
  if (STARTS_WITH_BLOCK.test(normalized) && ENDS_WITH_BLOCK.test(normalized)) return normalized;
  return normalized
    .split(/\n[ \t]*\n/)
    .map((chunk) => chunk.trim())
    .filter((chunk) => chunk !== '')
    .map((chunk) => (isBlockChunk(chunk) ? chunk : `<p>${chunk.replace(/\n/g, '<br />\n')}</p>`))
    .join('\n');
}

// Either end is enough: wrapping "<p>a</p>\nb" would nest a block inside <p>.
function isBlockChunk(chunk: string): boolean {
  return STARTS_WITH_BLOCK.test(chunk) || ENDS_WITH_BLOCK.test(chunk);
}

const UNTRUSTED: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'a', 'strong', 'em', 'b', 'i', 'u', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
    'blockquote', 'br', 'img', 'span', 'div', 'code', 'pre',
    'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  // Drop these elements with their content; by default only the tags would go and their text remain.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed'],
  transformTags: {
    // sanitize-html allows schemes per tag, not per media type: only inline images may use data:.
    img: (tagName, attribs) => {
      const { src, ...rest } = attribs;
      const unsafeData = src !== undefined && /^\s*data:/i.test(src) && !/^\s*data:image\//i.test(src);
      return { tagName, attribs: unsafeData ? rest : attribs };
    },
  },
};

/** Keeps ordinary formatting HTML and removes anything that can run script. */
export function sanitizeUntrusted(html: string): string {
  return sanitizeHtml(html, UNTRUSTED);
}

const TEXT_ONLY: sanitizeHtml.IOptions = { allowedTags: [], allowedAttributes: {} };
const ESCAPED: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };

/**
 * Plain text content of an HTML fragment (script/style content dropped), entities decoded.
 * The result is text, not HTML: escape it before putting it into markup.
 */
export function stripTags(html: string): string {
  // sanitize-html decodes all entities while parsing and re-escapes only these three on output.
  return sanitizeHtml(html, TEXT_ONLY)
    .replace(/&(?:amp|lt|gt);/g, (entity) => ESCAPED[entity])
    .trim();
}
