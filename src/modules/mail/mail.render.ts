/**
 * Mails as their recipient reads them: each kind of Mail is first described once, as a subject and
 * a list of blocks in the recipient's words, then written twice from that description, as plain
 * text (wrapped, URLs on lines of their own) and as a small HTML document (inline styles only, no
 * image, font or script to fetch, every interpolated value escaped). Both bodies say the same
 * things because they are written from the same blocks.
 */
import { parseZone, timezoneAbbr } from '../../lib/dates.js';
import { escapeHtml } from '../../lib/html.js';
import { fill, formats } from '../pages/page.i18n.js';
import { MAIL_MESSAGES, mailLanguage, type MailLanguage, type MailMessages } from './mail.messages.js';
import type { Mail, MailEvent, RenderedMail } from './mail.schema.js';

/** A submission as moderators' mails list it. */
interface SubmissionItem {
  event: MailEvent;
  submitter: string;
  verified: boolean;
  duplicate: boolean;
}

type Block =
  | { type: 'text'; text: string }
  | { type: 'event'; event: MailEvent }
  | { type: 'action'; label: string; url: string }
  /** Someone else's words (a moderator's reason), kept line for line. */
  | { type: 'quote'; label: string; text: string }
  | { type: 'submissions'; items: SubmissionItem[]; list: boolean };

interface Content {
  subject: string;
  greeting: string;
  blocks: Block[];
  /** Why the recipient gets this mail. */
  footer: string;
  /** Moderators' mails: the one-click unsubscribe address (RFC 8058), also linked in both bodies. */
  unsubscribeUrl?: string;
}

interface Site {
  name: string;
  url: string;
}

/**
 * The mail in `lang` (one of the five site languages; English for any other): its subject, its
 * plain-text and HTML bodies, and its extra headers, `List-Unsubscribe` and
 * `List-Unsubscribe-Post: List-Unsubscribe=One-Click` on moderators' mails and none on submitters'.
 */
export function renderMail(mail: Mail, lang: string, site: Site): RenderedMail {
  const language = mailLanguage(lang);
  const content = describe(mail, language, MAIL_MESSAGES[language], oneLine(site.name));
  return {
    subject: content.subject,
    text: plainText(content, language, site),
    html: htmlDocument(content, language, site),
    headers: content.unsubscribeUrl
      ? { 'List-Unsubscribe': `<${content.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
      : {},
  };
}

/**
 * An event's start as a mail gives it, in the reader's language and the event's own time zone:
 * "Saturday, December 5, 2026 at 7:00 PM CET", "samedi 5 décembre 2026 à 19:00 CET"; the date
 * alone for an all-day event. `startLocal` is the stored wall-clock value (`YYYY-MM-DD HH:MM:SS`)
 * in `timezone`, so only its writing changes, never its digits.
 */
export function formatWhen(startLocal: string, timezone: string, allDay: boolean, lang: string): string {
  const date = formats.range(mailLanguage(lang), startLocal, startLocal, allDay);
  return allDay ? date : `${date} ${zoneLabel(startLocal, timezone)}`;
}

// ICU says 'GMT+3' for a zone with no abbreviation in common use; its name says more to a reader
// ('Europe/Istanbul'). A fixed offset keeps the name it was given ('UTC+2').
function zoneLabel(local: string, timezone: string): string {
  const zone = parseZone(timezone);
  // An unreadable zone is read as UTC everywhere else (zoneOrUtc), so the time is UTC.
  if (!zone) return 'UTC';
  const abbr = timezoneAbbr(local, zone, timezone);
  return zone.type === 'iana' && /^(GMT|UTC)[+-]/.test(abbr) ? zone.name : abbr;
}

/** What each kind of mail says, in the recipient's words. */
function describe(mail: Mail, lang: MailLanguage, m: MailMessages, site: string): Content {
  const title = (event: MailEvent) => oneLine(event.title);
  const greet = (name: string) => (oneLine(name) ? fill(m.hello, { name: oneLine(name) }) : m.helloNoName);
  const submitterFooter = fill(m.submitterFooter, { site });
  switch (mail.kind) {
    case 'submission_received':
      return {
        subject: fill(m.receivedSubject, { title: title(mail.event) }),
        greeting: greet(mail.name),
        blocks: [text(fill(m.receivedText, { site })), event(mail.event), text(m.receivedNext)],
        footer: submitterFooter,
      };
    case 'submission_confirm':
      return {
        subject: m.confirmSubject,
        greeting: greet(mail.name),
        blocks: [
          text(fill(m.confirmText, { site })),
          event(mail.event),
          { type: 'action', label: m.confirmAction, url: mail.confirmUrl },
          text(m.confirmIgnore),
        ],
        footer: submitterFooter,
      };
    case 'submission_published':
      return {
        subject: fill(m.publishedSubject, { title: title(mail.event) }),
        greeting: greet(mail.name),
        blocks: [
          text(fill(m.publishedText, { site })),
          event(mail.event),
          { type: 'action', label: m.publishedAction, url: mail.url },
        ],
        footer: submitterFooter,
      };
    case 'submission_rejected': {
      const reason = mail.reason.replace(/\r\n?/g, '\n').trim();
      return {
        subject: fill(m.rejectedSubject, { title: title(mail.event) }),
        greeting: greet(mail.name),
        blocks: [
          text(fill(m.rejectedText, { site })),
          event(mail.event),
          ...(reason ? [{ type: 'quote', label: m.rejectedReason, text: reason } as const] : []),
        ],
        footer: submitterFooter,
      };
    }
    case 'moderator_submission':
      return {
        subject: fill(m.moderatorSubject, { title: title(mail.event) }),
        greeting: m.helloNoName,
        blocks: [
          text(fill(m.moderatorText, { site })),
          { type: 'submissions', items: [mail], list: false },
          { type: 'action', label: m.reviewAction, url: mail.queueUrl },
        ],
        footer: fill(m.moderatorFooter, { site }),
        unsubscribeUrl: mail.unsubscribeUrl,
      };
    case 'moderator_digest': {
      const count = (n: number) => n.toLocaleString(lang);
      const waiting = new Intl.PluralRules(lang).select(mail.waiting) === 'one' ? m.waitingOne : m.waitingOther;
      return {
        subject: fill(m.digestSubject, { site, n: count(mail.waiting) }),
        greeting: m.helloNoName,
        blocks: [
          ...(mail.items.length > 0
            ? [text(fill(m.digestText, { site })), { type: 'submissions', items: mail.items, list: true } as const]
            : [text(m.digestNone)]),
          text(fill(waiting, { n: count(mail.waiting) })),
          { type: 'action', label: m.reviewAction, url: mail.queueUrl },
        ],
        footer: fill(m.moderatorFooter, { site }),
        unsubscribeUrl: mail.unsubscribeUrl,
      };
    }
  }
}

const text = (value: string): Block => ({ type: 'text', text: value });
const event = (value: MailEvent): Block => ({ type: 'event', event: value });

/** Titles and names are single lines wherever they appear (a subject above all). */
function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

/** The lines under an event in moderators' mails: who sent it, whether it passed the check, a duplicate warning. */
function submissionFacts(item: SubmissionItem, m: MailMessages): { sentBy: string; duplicate: string } {
  const check = item.verified ? m.verified : m.unverified;
  const submitter = oneLine(item.submitter);
  return {
    sentBy: submitter ? `${fill(m.sentBy, { name: submitter })} · ${check}` : check,
    duplicate: item.duplicate ? m.duplicate : '',
  };
}

// ---- Plain text -------------------------------------------------------------------------------

/** Lines are wrapped before this column (RFC 5322 recommends 78, mail readers quote with '> '). */
const WIDTH = 72;

function plainText(content: Content, lang: MailLanguage, site: Site): string {
  const m = MAIL_MESSAGES[lang];
  const paragraphs = [wrap(content.greeting), ...content.blocks.map((block) => textBlock(block, lang, m))];
  const signature = [
    // "-- " (with its space) is the signature separator mail readers recognise and can hide.
    '-- ',
    oneLine(site.name),
    site.url,
    wrap(content.footer),
    ...(content.unsubscribeUrl ? [labelled(m.unsubscribe, lang), content.unsubscribeUrl] : []),
  ];
  return `${paragraphs.join('\n\n')}\n\n${signature.join('\n')}\n`;
}

function textBlock(block: Block, lang: MailLanguage, m: MailMessages): string {
  switch (block.type) {
    case 'text':
      return wrap(block.text);
    case 'event':
      return [wrap(oneLine(block.event.title), '  '), wrap(block.event.when, '  ')].join('\n');
    case 'action':
      // The address alone on its line, so that readers that link addresses link all of it.
      return `${labelled(block.label, lang)}\n${block.url}`;
    case 'quote':
      return [wrap(block.label), ...block.text.split('\n').map((line) => wrap(line, '> '))].join('\n');
    case 'submissions':
      return block.items
        .map((item) => {
          const facts = submissionFacts(item, m);
          const [first, rest] = block.list ? ['- ', '  '] : ['  ', '  '];
          return [
            first + wrap(oneLine(item.event.title), rest).slice(rest.length),
            wrap(item.event.when, rest),
            wrap(facts.sentBy, rest),
            ...(facts.duplicate ? [wrap(`! ${facts.duplicate}`, rest)] : []),
          ].join('\n');
        })
        .join('\n\n');
  }
}

/** "See the event:" before an address; French puts a no-break space before the colon. */
function labelled(label: string, lang: MailLanguage): string {
  return lang === 'fr' ? `${label}\u00a0:` : `${label}:`;
}

/**
 * Words wrapped into lines shorter than {@link WIDTH}, each line starting with `indent`. Only
 * ordinary spaces break (a no-break space keeps its neighbours together); a word longer than a
 * line, such as an address, is never cut.
 */
function wrap(value: string, indent = ''): string {
  const lines: string[] = [];
  let line = '';
  for (const word of value.split(' ').filter((w) => w !== '')) {
    if (line && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.map((l) => (l ? indent + l : indent.trimEnd())).join('\n');
}

// ---- HTML -------------------------------------------------------------------------------------

/** HTML this file wrote; anything else put into a template below is text and gets escaped. */
class Markup {
  constructor(readonly html: string) {}
}
type Part = Markup | string | number | readonly Part[];

function markup(part: Part): string {
  if (part instanceof Markup) return part.html;
  if (Array.isArray(part)) return part.map(markup).join('');
  return escapeHtml(String(part));
}

/**
 * A piece of HTML whose values are escaped unless they are Markup themselves, so no text can
 * become markup by forgetting to escape it. Attribute values are always written in double quotes,
 * which escapeHtml escapes.
 */
function h(strings: TemplateStringsArray, ...parts: Part[]): Markup {
  return new Markup(strings.reduce((out, literal, i) => out + markup(parts[i - 1]!) + literal));
}

/** Text with its line breaks kept as <br>. */
function lines(value: string): Markup {
  return new Markup(value.split('\n').map(escapeHtml).join('<br>\n'));
}

// Mail readers drop <style> elements and external sheets: every style is inline. Colours meet WCAG
// AA contrast on white; a system font stack, so there is nothing to download.
const FONT = 'font-family:Arial,Helvetica,sans-serif;';
const LINK = 'color:#1d4ed8;text-decoration:underline;';
const STYLE = {
  body: 'margin:0;padding:0;background-color:#f4f4f5;',
  article: `max-width:600px;margin:0 auto;padding:24px;background-color:#ffffff;color:#1f2937;${FONT}font-size:16px;line-height:1.5;`,
  h1: 'margin:0 0 16px;font-size:20px;line-height:1.3;color:#111827;',
  p: 'margin:0 0 16px;',
  label: 'margin:0 0 4px;',
  event: 'margin:0 0 16px;padding:12px 16px;border-left:4px solid #1d4ed8;background-color:#eff6ff;',
  eventTitle: 'margin:0;font-weight:bold;font-size:17px;',
  eventLine: 'margin:4px 0 0;',
  duplicate: 'margin:4px 0 0;font-weight:bold;color:#b91c1c;',
  button:
    'display:inline-block;padding:10px 18px;background-color:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:4px;font-weight:bold;',
  quote: 'margin:0 0 16px;padding:8px 16px;border-left:4px solid #9ca3af;background-color:#f9fafb;color:#374151;',
  list: 'margin:0 0 16px;padding:0 0 0 20px;',
  item: 'margin:0 0 12px;',
  hr: 'border:none;border-top:1px solid #e5e7eb;margin:24px 0 16px;',
  footer: 'margin:0 0 8px;font-size:13px;color:#4b5563;',
  link: LINK,
};

function htmlDocument(content: Content, lang: MailLanguage, site: Site): string {
  const m = MAIL_MESSAGES[lang];
  const body = content.blocks.map((block) => htmlBlock(block, m));
  const unsubscribe = content.unsubscribeUrl
    ? h`<p style="${STYLE.footer}"><a href="${content.unsubscribeUrl}" style="${STYLE.link}">${m.unsubscribe}</a></p>`
    : '';
  // role="article" with the subject as its name: screen readers announce the mail as one piece,
  // as the accessible-email guidance (and the web view of many mail readers) expects.
  return h`<!DOCTYPE html>
<html lang="${lang}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${content.subject}</title>
</head>
<body style="${STYLE.body}">
<div role="article" aria-roledescription="email" aria-label="${content.subject}" lang="${lang}" dir="ltr" style="${STYLE.article}">
<h1 style="${STYLE.h1}">${content.subject}</h1>
<p style="${STYLE.p}">${content.greeting}</p>
${body}
<hr style="${STYLE.hr}">
<p style="${STYLE.footer}"><a href="${site.url}" style="${STYLE.link}">${oneLine(site.name)}</a></p>
<p style="${STYLE.footer}">${content.footer}</p>
${unsubscribe}
</div>
</body>
</html>
`.html;
}

function htmlBlock(block: Block, m: MailMessages): Markup {
  switch (block.type) {
    case 'text':
      return h`<p style="${STYLE.p}">${block.text}</p>\n`;
    case 'event':
      return h`<div style="${STYLE.event}"><p style="${STYLE.eventTitle}">${oneLine(block.event.title)}</p><p style="${STYLE.eventLine}">${block.event.when}</p></div>\n`;
    case 'action':
      return h`<p style="${STYLE.p}"><a href="${block.url}" style="${STYLE.button}">${block.label}</a></p>\n`;
    case 'quote':
      return h`<p style="${STYLE.label}">${block.label}</p>\n<blockquote style="${STYLE.quote}">${lines(block.text)}</blockquote>\n`;
    case 'submissions': {
      const cards = block.items.map((item) => {
        const facts = submissionFacts(item, m);
        return h`<div style="${STYLE.event}"><p style="${STYLE.eventTitle}">${oneLine(item.event.title)}</p><p style="${STYLE.eventLine}">${item.event.when}</p><p style="${STYLE.eventLine}">${facts.sentBy}</p>${facts.duplicate ? h`<p style="${STYLE.duplicate}">${facts.duplicate}</p>` : ''}</div>`;
      });
      return block.list
        ? h`<ul style="${STYLE.list}">${cards.map((card) => h`<li style="${STYLE.item}">${card}</li>`)}</ul>\n`
        : h`${cards}\n`;
    }
  }
}
