import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sanitizeHtml from 'sanitize-html';
import { stripTags } from '../../../src/lib/html.js';
import { MAIL_LANGUAGES, MAIL_MESSAGES } from '../../../src/modules/mail/mail.messages.js';
import { formatWhen, renderMail } from '../../../src/modules/mail/mail.render.js';
import type { Mail, MailKind } from '../../../src/modules/mail/mail.schema.js';

const SITE = { name: 'Riverside Events', url: 'https://events.example.org/' };
const UNSUBSCRIBE = 'https://events.example.org/events/submit/unsubscribe?token=u-123';
const QUEUE = 'https://events.example.org/cal/admin/#/submissions';

/** One mail of each kind, with `overrides` for the texts a test wants to put in. */
function mails(o: { title?: string; name?: string; reason?: string } = {}): {
  [K in MailKind]: Extract<Mail, { kind: K }>;
} {
  const event = { title: o.title ?? 'Jazz by the river', when: 'Saturday, December 5, 2026 at 7:00 PM CET' };
  const name = o.name ?? 'Ana Lima';
  return {
    submission_received: { kind: 'submission_received', name, event },
    submission_confirm: {
      kind: 'submission_confirm',
      name,
      event,
      confirmUrl: 'https://events.example.org/events/submit/confirm?token=c-456',
    },
    submission_published: {
      kind: 'submission_published',
      name,
      event,
      url: 'https://events.example.org/event/jazz-by-the-river/',
    },
    submission_rejected: {
      kind: 'submission_rejected',
      name,
      event,
      reason: o.reason ?? 'Not a public event.\nPlease send the programme when it is open to all.',
    },
    moderator_submission: {
      kind: 'moderator_submission',
      event,
      submitter: name,
      verified: false,
      duplicate: true,
      queueUrl: QUEUE,
      unsubscribeUrl: UNSUBSCRIBE,
    },
    moderator_digest: {
      kind: 'moderator_digest',
      items: [
        { event, submitter: name, verified: true, duplicate: false },
        {
          event: { title: 'Night market', when: 'Friday, May 1, 2026' },
          submitter: 'Bo',
          verified: false,
          duplicate: true,
        },
      ],
      waiting: 3,
      queueUrl: QUEUE,
      unsubscribeUrl: UNSUBSCRIBE,
    },
  };
}

const KINDS = Object.keys(mails()) as MailKind[];
const MODERATOR_KINDS: MailKind[] = ['moderator_submission', 'moderator_digest'];

/** Every element of an HTML document with its attributes, as a real parser (htmlparser2, through sanitize-html) reads them. */
function elements(html: string): { name: string; attribs: Record<string, string> }[] {
  const found: { name: string; attribs: Record<string, string> }[] = [];
  sanitizeHtml(html, { onOpenTag: (name, attribs) => found.push({ name, attribs }) });
  return found;
}

describe('renderMail', () => {
  it('should render every kind in every language, with nothing left unfilled', () => {
    for (const lang of MAIL_LANGUAGES)
      for (const kind of KINDS) {
        const mail = renderMail(mails()[kind], lang, SITE);
        const where = `${kind} in ${lang}`;
        assert.ok(mail.subject.length > 0 && !mail.subject.includes('\n'), where);
        for (const part of [mail.subject, mail.text, mail.html]) {
          assert.doesNotMatch(part, /undefined|null|NaN|\[object/, where);
          assert.doesNotMatch(part, /[{}]/, where);
        }
        assert.match(mail.html, new RegExp(`^<!DOCTYPE html>\\n<html lang="${lang}" dir="ltr">`), where);
        assert.ok(mail.html.includes(`<title>${mail.subject}</title>`), where);
        assert.ok(mail.text.includes('Jazz by the river') && mail.html.includes('Jazz by the river'), where);
        assert.ok(mail.text.endsWith('\n'), where);
      }
  });

  it('should write the HTML body as a self-contained document: no script, no style sheet, nothing to fetch', () => {
    const allowed = new Set([
      'html',
      'head',
      'meta',
      'title',
      'body',
      'div',
      'h1',
      'p',
      'a',
      'hr',
      'br',
      'ul',
      'li',
      'blockquote',
    ]);
    for (const kind of KINDS) {
      const found = elements(renderMail(mails()[kind], 'en', SITE).html);
      assert.deepEqual(
        found.filter((e) => !allowed.has(e.name)).map((e) => e.name),
        [],
        kind,
      );
      for (const { name, attribs } of found) {
        assert.deepEqual(
          Object.keys(attribs).filter((a) => a.startsWith('on') || a === 'src' || a === 'class'),
          [],
          `${kind} <${name}>`,
        );
        if (name === 'a') assert.match(attribs['href']!, /^https:\/\//, kind);
      }
      assert.equal(found.filter((e) => e.name === 'title').length, 1, kind);
      assert.equal(found.find((e) => e.name === 'html')!.attribs['lang'], 'en');
    }
  });

  it('should escape what people typed (title, name, reason) in the HTML and keep it as written in the text', () => {
    const script = '<script>alert("x")</script>';
    const all = mails({
      title: `Party ${script}`,
      name: `Eve <img src=x onerror=alert(1)>`,
      reason: `No. ${script} & more`,
    });
    for (const kind of KINDS) {
      const mail = renderMail(all[kind], 'fr', SITE);
      assert.ok(!/<script|<img/i.test(mail.html), kind);
      assert.ok(mail.html.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'), kind);
      assert.ok(mail.text.includes(`Party ${script}`), kind);
      // The confirmation and the digest name no event in their subject.
      if (kind !== 'submission_confirm' && kind !== 'moderator_digest')
        assert.ok(mail.subject.includes(`Party ${script}`), kind);
      // The parser finds no element the texts could have opened, and reads them back as text.
      assert.ok(!elements(mail.html).some((e) => e.name === 'script' || e.name === 'img'), kind);
      assert.ok(stripTags(mail.html).includes(`Party ${script}`), kind);
    }
    const moderated = renderMail(all.moderator_submission, 'en', SITE);
    assert.ok(moderated.html.includes('Eve &lt;img src=x onerror=alert(1)&gt;'));
    const rejected = renderMail(all.submission_rejected, 'en', SITE);
    assert.ok(rejected.html.includes('No. &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more'));
    assert.ok(rejected.text.includes(`> No. ${script} & more`));
  });

  it("should keep the moderator's reason line for line, and leave out an empty one", () => {
    const mail = renderMail(
      mails({ reason: 'First line.\r\nSecond line.\n\nAfter a blank.' }).submission_rejected,
      'en',
      SITE,
    );
    assert.ok(mail.html.includes('First line.<br>\nSecond line.<br>\n<br>\nAfter a blank.'));
    assert.ok(mail.text.includes('The moderator’s reason:\n> First line.\n> Second line.\n>\n> After a blank.'));
    const none = renderMail(mails({ reason: '  \n ' }).submission_rejected, 'en', SITE);
    assert.ok(!none.text.includes('reason') && !none.html.includes('blockquote'));
  });

  it('should give moderators’ mails List-Unsubscribe (one-click) and a visible link, and submitters’ mails neither', () => {
    for (const lang of MAIL_LANGUAGES)
      for (const kind of KINDS) {
        const mail = renderMail(mails()[kind], lang, SITE);
        const stop = MAIL_MESSAGES[lang].unsubscribe;
        if (MODERATOR_KINDS.includes(kind)) {
          assert.deepEqual(mail.headers, {
            'List-Unsubscribe': `<${UNSUBSCRIBE}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          });
          assert.ok(mail.text.includes(`${stop}`) && mail.text.includes(`\n${UNSUBSCRIBE}\n`), `${kind} ${lang}`);
          assert.ok(mail.html.includes(`<a href="${UNSUBSCRIBE.replace(/&/g, '&amp;')}"`), `${kind} ${lang}`);
          assert.ok(mail.html.includes(`>${stop}</a>`), `${kind} ${lang}`);
        } else {
          assert.deepEqual(mail.headers, {}, `${kind} ${lang}`);
          assert.ok(!mail.text.includes('unsubscribe') && !mail.html.includes('unsubscribe'), `${kind} ${lang}`);
        }
      }
  });

  it('should write French for fr', () => {
    const all = mails();
    const fr = (kind: MailKind) => renderMail(all[kind], 'fr', SITE);
    assert.equal(fr('submission_published').subject, 'Votre événement a été publié\u00a0: Jazz by the river');
    assert.ok(fr('submission_published').text.startsWith('Bonjour Ana Lima,\n\nBonne nouvelle\u00a0: votre événement'));
    assert.ok(
      fr('submission_published').text.includes(
        'Voir l’événement\u00a0:\nhttps://events.example.org/event/jazz-by-the-river/',
      ),
    );
    assert.equal(fr('submission_received').subject, 'Événement reçu\u00a0: Jazz by the river');
    assert.equal(fr('submission_rejected').subject, 'Votre événement n’a pas été publié\u00a0: Jazz by the river');
    assert.equal(fr('submission_confirm').subject, 'Confirmez votre adresse e-mail');
    assert.ok(fr('moderator_submission').text.includes('Proposé par Ana Lima · Non vérifié'));
    assert.ok(fr('moderator_digest').html.includes('Ne plus recevoir ces e-mails'));
  });

  it('should write English for a language the mails are not written in, and read fr-CA as French', () => {
    const published = mails().submission_published;
    assert.equal(renderMail(published, 'pt', SITE).subject, 'Your event is published: Jazz by the river');
    assert.match(renderMail(published, 'pt', SITE).html, /<html lang="en"/);
    assert.equal(renderMail(published, '', SITE).subject, 'Your event is published: Jazz by the river');
    assert.equal(renderMail(published, 'fr-CA', SITE).subject, 'Votre événement a été publié\u00a0: Jazz by the river');
  });

  it('should list each item of a digest with its checks, and the number waiting in all', () => {
    const en = renderMail(mails().moderator_digest, 'en', SITE);
    assert.equal(en.subject, 'Riverside Events: events waiting for review (3)');
    assert.ok(
      en.text.includes(
        '- Jazz by the river\n  Saturday, December 5, 2026 at 7:00 PM CET\n  Sent by Ana Lima · Verified\n\n' +
          '- Night market\n  Friday, May 1, 2026\n  Sent by Bo · Unverified\n  ! Possible duplicate of an existing event',
      ),
      en.text,
    );
    assert.ok(en.text.includes('In all, 3 events are waiting.'));
    assert.equal(elements(en.html).filter((e) => e.name === 'li').length, 2);
    const one = renderMail({ ...mails().moderator_digest, waiting: 1, items: [] }, 'en', SITE);
    assert.ok(
      one.text.includes('Nothing new in the last 24 hours.') && one.text.includes('In all, 1 event is waiting.'),
    );
    const de = renderMail({ ...mails().moderator_digest, waiting: 1 }, 'de', SITE);
    assert.ok(de.text.includes('Insgesamt wartet 1 Veranstaltung.'));
    const es = renderMail({ ...mails().moderator_digest, waiting: 1200 }, 'es', SITE);
    assert.ok(
      es.text.includes('En total, hay 1200 eventos pendientes.') ||
        es.text.includes('En total, hay 1.200 eventos pendientes.'),
    );
  });

  it('should wrap the text at 72 columns, with addresses alone on their lines', () => {
    const long = 'A very long title for an event that goes on well beyond what one line of a mail can hold, twice over';
    for (const lang of MAIL_LANGUAGES)
      for (const kind of KINDS) {
        const { text } = renderMail(mails({ title: long })[kind], lang, SITE);
        for (const line of text.split('\n')) {
          if (/https:\/\//.test(line)) assert.match(line, /^(> )?https:\/\/\S+$/, `${kind} ${lang}: ${line}`);
          else assert.ok(line.length <= 72, `${kind} ${lang}: ${line}`);
        }
      }
  });

  it('should name the site with a link to it in both bodies', () => {
    const mail = renderMail(mails().submission_received, 'it', { name: 'Eventi <Fiume>', url: SITE.url });
    assert.ok(mail.text.includes('-- \nEventi <Fiume>\nhttps://events.example.org/\n'));
    assert.ok(
      mail.html.includes(
        '<a href="https://events.example.org/" style="color:#1d4ed8;text-decoration:underline;">Eventi &lt;Fiume&gt;</a>',
      ),
    );
  });
});

describe('mail messages', () => {
  it('should have every word in every language, none empty', () => {
    const keys = Object.keys(MAIL_MESSAGES.en).sort();
    for (const lang of MAIL_LANGUAGES) {
      assert.deepEqual(Object.keys(MAIL_MESSAGES[lang]).sort(), keys, lang);
      for (const [key, value] of Object.entries(MAIL_MESSAGES[lang])) assert.ok(value.trim() !== '', `${lang}.${key}`);
    }
  });
});

describe('formatWhen', () => {
  it('should write a timed start in the language, in the event’s zone, with its abbreviation', () => {
    assert.equal(
      formatWhen('2026-12-05 19:00:00', 'Europe/Paris', false, 'en'),
      'Saturday, December 5, 2026 at 7:00 PM CET',
    );
    assert.equal(
      formatWhen('2026-07-05 19:00:00', 'Europe/Paris', false, 'fr'),
      'dimanche 5 juillet 2026 à 19:00 CEST',
    );
    assert.equal(
      formatWhen('2026-12-05 19:00:00', 'Europe/Berlin', false, 'de'),
      'Samstag, 5. Dezember 2026 um 19:00 CET',
    );
    assert.equal(
      formatWhen('2026-07-05 09:30:00', 'America/New_York', false, 'es'),
      'domingo, 5 de julio de 2026, 9:30 EDT',
    );
    assert.match(formatWhen('2026-12-05 19:00:00', 'Europe/Rome', false, 'it'), /^sabato 5 dicembre 2026.* 19:00 CET$/);
  });

  it('should name a zone that has no abbreviation, and keep a fixed offset as written', () => {
    assert.match(formatWhen('2026-12-05 19:00:00', 'Asia/Kathmandu', false, 'en'), / Asia\/Kathmandu$/);
    assert.match(formatWhen('2026-12-05 19:00:00', 'UTC+2', false, 'en'), / UTC\+2$/);
    assert.match(formatWhen('2026-12-05 19:00:00', 'UTC', false, 'en'), /7:00 PM UTC$/);
    assert.match(formatWhen('2026-12-05 19:00:00', 'Not/AZone', false, 'en'), /7:00 PM UTC$/);
  });

  it('should write the date alone for an all-day event', () => {
    assert.equal(formatWhen('2026-12-05 00:00:00', 'Europe/Paris', true, 'en'), 'Saturday, December 5, 2026');
    assert.equal(formatWhen('2026-12-05', 'Europe/Paris', true, 'fr'), 'samedi 5 décembre 2026');
  });

  it('should write English for another language', () => {
    assert.equal(
      formatWhen('2026-12-05 19:00:00', 'Europe/Paris', false, 'pt'),
      'Saturday, December 5, 2026 at 7:00 PM CET',
    );
  });
});
