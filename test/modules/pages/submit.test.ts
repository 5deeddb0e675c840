import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { parse, type HTMLElement } from 'node-html-parser';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';

/**
 * The public submission form (issue 29) through app.inject: what the page offers and to whom, what
 * a post answers (every message beside its field, everything typed kept), and its other pages.
 * The submissions service's own rules are tested in test/modules/submissions/.
 */

const ADMIN = '/cal/admin/v1';
const NS = '/cal/events/v1';
const PASSWORD = 'correct horse battery staple';
/** Later than any machine's today. */
const YEAR = 2031;

/** A form as a browser posts it. */
const form = (values: Record<string, string>) => new URLSearchParams(values).toString();
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };

const GOOD = {
  title: 'Jazz on the quay',
  description: 'An evening of jazz.\n\nTickets: https://tickets.example.org/jazz',
  start: `${YEAR}-06-05T19:00`,
  end: `${YEAR}-06-05T22:00`,
  timezone: '',
  venue_id: '',
  venue_name: 'Quai des Arts',
  venue_address: '1 quai Voltaire',
  venue_city: 'Paris',
  venue_country: 'France',
  organizer_id: '',
  organizer_name: '',
  organizer_email: '',
  organizer_website: '',
  category_id: '',
  tags: 'jazz, music',
  cost: '10',
  website: '',
  image: '',
  name: 'Alice Martin',
  email: 'alice@example.org',
  homepage: '',
};

/** The control a <label> names, by the label's exact text (its aria-hidden marks left out). */
function control(html: HTMLElement, name: string): HTMLElement {
  const labels = html.querySelectorAll('label').filter((label) => {
    const copy = parse(label.innerHTML);
    for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
    return copy.text.trim() === name;
  });
  assert.equal(labels.length, 1, `one label "${name}"`);
  const id = labels[0]!.getAttribute('for');
  assert.ok(id, `label "${name}" names its control`);
  const found = html.querySelector(`#${id}`);
  assert.ok(found, `the control of "${name}"`);
  return found;
}

for (const backend of backends()) {
  describe(`submission form [${backend}]`, () => {
    let t: TestApp;
    let admin: string;
    let venueId: number;
    let categoryId: number;
    let address = 0;
    /** The session cookie of a subscriber signed in through the admin (set by the users-only test). */
    let readerCookie = '';
    /** A fresh client address per post: the service limits submissions per address. */
    const nextAddress = () => `203.0.113.${(address += 1)}`;

    const setMode = async (submissions: 'off' | 'users' | 'anyone') => {
      const res = await t.request({ method: 'PATCH', url: `${ADMIN}/settings`, auth: admin, payload: { submissions } });
      assert.equal(res.statusCode, 200, res.body);
    };

    const get = (url: string, headers: Record<string, string> = {}) => t.request({ method: 'GET', url, headers });

    const post = (values: Record<string, string>, url = '/events/submit/', headers: Record<string, string> = {}) =>
      t.request({
        method: 'POST',
        url,
        payload: form(values),
        headers: { ...FORM_TYPE, ...headers },
        remoteAddress: nextAddress(),
      });

    before(async () => {
      t = await createTestApp(backend);
      admin = (await t.asUser('administrator')).authorization;
      const venue = await t.request({
        method: 'POST',
        url: `${NS}/venues`,
        auth: admin,
        payload: { venue: 'Harbour Hall', city: 'Nantes' },
      });
      venueId = venue.data.id;
      const category = await t.request({
        method: 'POST',
        url: `${NS}/categories`,
        auth: admin,
        payload: { name: 'Jazz' },
      });
      categoryId = category.data.id;
      await setMode('anyone');
    });
    after(() => t.close());

    describe('GET /events/submit/', () => {
      it('should show a form that posts without JavaScript, every field named for people', async () => {
        const res = await get('/events/submit/');
        assert.equal(res.statusCode, 200, res.body.slice(0, 300));
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.equal(res.headers['content-language'], 'en');
        assert.match(String(res.headers['content-security-policy']), /script-src 'self'(;|$)/);
        const html = parse(res.body);
        const formEl = html.querySelector('form.submit-form')!;
        assert.equal(formEl.getAttribute('method'), 'post');
        assert.equal(formEl.getAttribute('action'), '/events/submit/');
        const names: [string, string, string][] = [
          ['Title', 'title', 'input'],
          ['Description', 'description', 'textarea'],
          ['Start', 'start', 'input'],
          ['End', 'end', 'input'],
          ['Time zone', 'timezone', 'input'],
          ['All day', 'all_day', 'input'],
          ['Venue', 'venue_id', 'select'],
          ['Venue name', 'venue_name', 'input'],
          ['Address', 'venue_address', 'input'],
          ['City', 'venue_city', 'input'],
          ['Country', 'venue_country', 'input'],
          ['Organizer', 'organizer_id', 'select'],
          ['Organizer name', 'organizer_name', 'input'],
          ['Organizer email', 'organizer_email', 'input'],
          ['Organizer website', 'organizer_website', 'input'],
          ['Category', 'category_id', 'select'],
          ['Tags', 'tags', 'input'],
          ['Cost', 'cost', 'input'],
          ['Event website', 'website', 'input'],
          ['Image URL', 'image', 'input'],
          ['Your name', 'name', 'input'],
          ['Your email', 'email', 'input'],
        ];
        for (const [label, name, tag] of names) {
          const el = control(html, label);
          assert.equal(el.tagName.toLowerCase(), tag, label);
          assert.equal(el.getAttribute('name'), name, label);
        }
        assert.equal(control(html, 'Start').getAttribute('type'), 'datetime-local');
        assert.equal(control(html, 'All day').getAttribute('type'), 'checkbox');
        assert.equal(control(html, 'Your email').getAttribute('type'), 'email');
        // The choices: published venues of the language, after "New venue…"; the categories.
        const venues = control(html, 'Venue').querySelectorAll('option');
        assert.deepEqual(
          venues.map((o) => [o.getAttribute('value'), o.text]),
          [
            ['', 'New venue…'],
            [String(venueId), 'Harbour Hall'],
          ],
        );
        assert.ok(
          control(html, 'Category')
            .querySelectorAll('option')
            .some((o) => o.getAttribute('value') === String(categoryId) && o.text === 'Jazz'),
        );
        // Fieldsets with legends group the venue, the organizer and the submitter.
        const legends = html.querySelectorAll('fieldset > legend').map((l) => l.text.trim());
        for (const legend of ['Venue', 'Organizer', 'About you']) assert.ok(legends.includes(legend), legend);
        // The honeypot: off-screen, hidden from assistive technology, out of the tab order, never filled in.
        const trap = html.querySelector('input[name="homepage"]')!;
        assert.equal(trap.getAttribute('tabindex'), '-1');
        assert.equal(trap.getAttribute('autocomplete'), 'off');
        assert.equal(trap.closest('[aria-hidden="true"]')?.classList.contains('submit-trap'), true);
        assert.equal(control(html, 'Leave this empty'), trap);
        // ALTCHA's widget: a custom element fetching its challenge here, its scripts the site's own.
        const widget = html.querySelector('altcha-widget')!;
        assert.equal(widget.getAttribute('challenge'), '/events/submit/challenge');
        assert.equal(widget.getAttribute('name'), 'altcha');
        for (const src of html.querySelectorAll('script').map((s) => s.getAttribute('src')))
          assert.match(String(src), /^\/assets\//);
        const button = html.querySelectorAll('button').filter((b) => b.text.trim() === 'Submit event');
        assert.equal(button.length, 1);
        assert.equal(button[0]!.getAttribute('type'), 'submit');
      });

      it('should serve the widget, its workers and the form script from /assets/', async () => {
        const html = parse((await get('/events/submit/')).body);
        const widget = html.querySelector('altcha-widget')!;
        const paths = [
          ...html.querySelectorAll('script').map((s) => s.getAttribute('src')!),
          widget.getAttribute('data-pbkdf2')!,
          widget.getAttribute('data-sha')!,
        ];
        for (const path of paths) {
          const res = await get(path);
          assert.equal(res.statusCode, 200, path);
          assert.match(String(res.headers['content-type']), /^text\/javascript/, path);
        }
      });

      it('should link the form from its own chrome', async () => {
        const html = parse((await get('/events/submit/')).body);
        const link = html.querySelector('.site-header a.cal-submit-link')!;
        assert.equal(link.getAttribute('href'), '/events/submit/');
        assert.equal(link.text.trim(), 'Submit an event');
      });

      it('should link the form from every view while submissions are on', async () => {
        const on = parse((await get('/events/list/')).body);
        assert.equal(on.querySelector('a.cal-submit-link')?.getAttribute('href'), '/events/submit/');
        await setMode('off');
        try {
          assert.equal(parse((await get('/events/list/')).body).querySelector('a.cal-submit-link'), null);
        } finally {
          await setMode('anyone');
        }
      });

      it('should be in the language of its root', async () => {
        const res = await get('/fr/events/submit/');
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['content-language'], 'fr');
        const html = parse(res.body);
        assert.equal(html.querySelector('html')!.getAttribute('lang'), 'fr');
        assert.equal(html.querySelector('h1')!.text.trim(), 'Proposer un événement');
        assert.equal(control(html, 'Titre').getAttribute('name'), 'title');
        assert.equal(control(html, 'Votre e-mail').getAttribute('name'), 'email');
        assert.equal(html.querySelector('form.submit-form')!.getAttribute('action'), '/fr/events/submit/');
        assert.equal(html.querySelector('altcha-widget')!.getAttribute('challenge'), '/fr/events/submit/challenge');
        assert.ok(html.querySelectorAll('button').some((b) => b.text.trim() === 'Envoyer l’événement'));
      });
    });

    describe('POST /events/submit/', () => {
      it('should take a good submission and answer 303 to the thank-you page', async () => {
        const res = await post({ ...GOOD, title: 'Taken at once' });
        assert.equal(res.statusCode, 303, res.body.slice(0, 500));
        assert.equal(res.headers['location'], '/events/submit/?sent=pending');
        const thanks = await get(String(res.headers['location']));
        assert.equal(thanks.statusCode, 200);
        assert.equal(thanks.headers['cache-control'], 'no-store');
        const status = parse(thanks.body).querySelector('[role="status"]')!;
        assert.equal(status.text.trim(), 'Thank you: your event waits for a moderator.');
        // Pending: not in the public API.
        const listed = await t.request({ method: 'GET', url: `${NS}/events?search=Taken` });
        assert.deepEqual(listed.data.events ?? [], []);
      });

      it('should say so in French under /fr/', async () => {
        const res = await post({ ...GOOD, title: 'Soirée en français' }, '/fr/events/submit/');
        assert.equal(res.statusCode, 303, res.body.slice(0, 500));
        assert.equal(res.headers['location'], '/fr/events/submit/?sent=pending');
        const thanks = parse((await get(String(res.headers['location']))).body);
        assert.equal(
          thanks.querySelector('[role="status"]')!.text.trim(),
          'Merci : votre événement attend un modérateur.',
        );
      });

      it('should answer bad input with the form again: messages beside their fields, a summary, everything typed kept', async () => {
        const typed = {
          ...GOOD,
          title: '',
          description: 'Line one <b>bold</b> & "quoted"',
          start: `${YEAR}-06-05T19:00`,
          end: `${YEAR}-06-04T19:00`,
          venue_id: String(venueId),
          category_id: String(categoryId),
          email: 'not an address',
          website: 'javascript:alert(1)',
          all_day: '',
        };
        delete (typed as Record<string, string>)['all_day'];
        const res = await post({ ...typed, tags: 'a, b' });
        assert.equal(res.statusCode, 400);
        assert.equal(res.headers['cache-control'], 'no-store');
        const html = parse(res.body);
        const summary = html.querySelector('.submit-problems')!;
        assert.equal(summary.getAttribute('role'), 'alert');
        const links = summary.querySelectorAll('a').map((a) => a.getAttribute('href'));
        for (const field of ['title', 'end', 'email', 'website']) assert.ok(links.includes(`#s-${field}`), field);
        for (const [label, message] of [
          ['Title', 'This field is required.'],
          ['End', 'The end is before the start.'],
          ['Your email', 'Not an e-mail address.'],
          ['Event website', 'Not a web address (starting with https:// or http://).'],
        ] as const) {
          const el = control(html, label);
          assert.equal(el.getAttribute('aria-invalid'), 'true', label);
          const described = el.getAttribute('aria-describedby')!.split(' ');
          const texts = described.map((id) => html.querySelector(`#${id}`)!.text.trim());
          assert.ok(texts.includes(message), `${label}: ${texts.join(' | ')}`);
        }
        assert.equal(control(html, 'Start').getAttribute('aria-invalid'), undefined);
        // Everything typed is kept, escaped.
        assert.equal(control(html, 'Description').text, typed.description);
        assert.ok(res.body.includes('Line one &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;'));
        assert.equal(control(html, 'Start').getAttribute('value'), typed.start);
        assert.equal(control(html, 'End').getAttribute('value'), typed.end);
        assert.equal(control(html, 'Your email').getAttribute('value'), 'not an address');
        assert.equal(control(html, 'Event website').getAttribute('value'), 'javascript:alert(1)');
        assert.equal(control(html, 'Tags').getAttribute('value'), 'a, b');
        assert.equal(control(html, 'Venue name').getAttribute('value'), 'Quai des Arts');
        assert.equal(control(html, 'Venue').querySelector('option[selected]')!.getAttribute('value'), String(venueId));
        assert.equal(
          control(html, 'Category').querySelector('option[selected]')!.getAttribute('value'),
          String(categoryId),
        );
        assert.equal(control(html, 'All day').getAttribute('checked'), undefined);
      });

      it('should keep the box checked and an all-day date in a date input', async () => {
        const res = await post({ ...GOOD, title: '', all_day: '1', start: `${YEAR}-07-01`, end: '' });
        assert.equal(res.statusCode, 400);
        const html = parse(res.body);
        assert.notEqual(control(html, 'All day').getAttribute('checked'), undefined);
        assert.equal(control(html, 'Start').getAttribute('type'), 'date');
        assert.equal(control(html, 'Start').getAttribute('value'), `${YEAR}-07-01`);
      });

      it('should keep a date the browser could not hold as the text typed', async () => {
        const res = await post({ ...GOOD, start: 'next friday 7pm' });
        assert.equal(res.statusCode, 400);
        const start = control(parse(res.body), 'Start');
        assert.equal(start.getAttribute('type'), 'text');
        assert.equal(start.getAttribute('value'), 'next friday 7pm');
        assert.equal(start.getAttribute('aria-invalid'), 'true');
      });

      it('should bound what it reads: a description far too long is kept cut and said too long', async () => {
        const res = await post({ ...GOOD, title: 'Too long', description: 'x'.repeat(50_000) });
        assert.equal(res.statusCode, 400);
        const html = parse(res.body);
        const description = control(html, 'Description');
        assert.equal(description.text.length, 20_000);
        assert.match(html.querySelector('#s-description-error')!.text, /Too long: \d+ characters at most\./);
      });

      it('should refuse the honeypot without saying why, and not fill it in again', async () => {
        const res = await post({ ...GOOD, title: 'Honey', homepage: 'https://spam.example' });
        assert.equal(res.statusCode, 400);
        const html = parse(res.body);
        assert.equal(html.querySelector('.submit-problems li')!.text.trim(), 'This submission cannot be accepted.');
        assert.equal(html.querySelector('input[name="homepage"]')!.getAttribute('value'), '');
        assert.equal(control(html, 'Title').getAttribute('value'), 'Honey');
      });

      it('should refuse a post from another site, and take one from its own origin', async () => {
        const forged = await post({ ...GOOD, title: 'Forged' }, '/events/submit/', { origin: 'https://evil.example' });
        assert.equal(forged.statusCode, 403);
        // What a browser sends with a form of the page: its own origin, the Host it was sent to.
        const own = await post({ ...GOOD, title: 'Same origin' }, '/events/submit/', {
          host: 'calendar.example:8080',
          origin: 'http://calendar.example:8080',
          'sec-fetch-site': 'same-origin',
        });
        assert.equal(own.statusCode, 303, own.body.slice(0, 300));
      });

      it('should tell a duplicate apart, with 409', async () => {
        const first = await post({ ...GOOD, title: 'Twice told' });
        assert.equal(first.statusCode, 303);
        const again = await post({ ...GOOD, title: 'Twice told', email: 'bob@example.org' });
        assert.equal(again.statusCode, 409);
        assert.match(parse(again.body).querySelector('.submit-problems')!.text, /already in the calendar/);
      });

      it('should keep everything typed on a server error, with 500', async () => {
        const service = t.app.services.submissions;
        const original = service.submit;
        service.submit = async () => {
          throw new Error('the database went away');
        };
        try {
          const res = await post({ ...GOOD, title: 'Kept through a failure', all_day: '1' });
          assert.equal(res.statusCode, 500);
          const html = parse(res.body);
          assert.equal(
            html.querySelector('.submit-problems li')!.text.trim(),
            'Something went wrong on our side. What you typed is kept: please try again.',
          );
          assert.equal(control(html, 'Title').getAttribute('value'), 'Kept through a failure');
          assert.equal(control(html, 'Description').text, GOOD.description);
          assert.equal(control(html, 'Your email').getAttribute('value'), GOOD.email);
          assert.notEqual(control(html, 'All day').getAttribute('checked'), undefined);
          assert.ok(!res.body.includes('the database went away'));
        } finally {
          service.submit = original;
        }
      });

      it('should answer 429 with Retry-After past the limit per address', async () => {
        const from = '198.51.100.77';
        let last;
        for (let i = 0; i < t.config.submissionLimit + 1; i += 1)
          last = await t.request({
            method: 'POST',
            url: '/events/submit/',
            payload: form({ ...GOOD, title: `Flood ${i}`, email: `flood${i}@example.org` }),
            headers: FORM_TYPE,
            remoteAddress: from,
          });
        assert.equal(last!.statusCode, 429);
        assert.ok(Number(last!.headers['retry-after']) > 0);
        assert.equal(control(parse(last!.body), 'Title').getAttribute('value'), `Flood ${t.config.submissionLimit}`);
      });
    });

    describe('who may submit', () => {
      it('should answer the site’s 404 page while submissions are off', async () => {
        await setMode('off');
        try {
          for (const url of ['/events/submit/', '/fr/events/submit/', '/events/submit/challenge']) {
            const res = await get(url);
            assert.equal(res.statusCode, 404, url);
            assert.match(String(res.headers['content-type']), /^text\/html/);
          }
          assert.equal((await post({ ...GOOD, title: 'While off' })).statusCode, 404);
        } finally {
          await setMode('anyone');
        }
      });

      it('should ask to sign in when submissions are for users, and show a signed-in user as themselves', async () => {
        await setMode('users');
        try {
          const res = await get('/events/submit/');
          assert.equal(res.statusCode, 403);
          const html = parse(res.body);
          assert.equal(html.querySelector('h1')!.text.trim(), 'Sign in to submit an event');
          assert.equal(
            html
              .querySelectorAll('a')
              .find((a) => a.text.trim() === 'Sign in')
              ?.getAttribute('href'),
            '/admin/',
          );
          assert.equal((await post({ ...GOOD, title: 'Anonymous' })).statusCode, 403);

          // A subscriber signed in through the admin: the session cookie is enough for the page.
          const made = await t.request({
            method: 'POST',
            url: `${ADMIN}/users`,
            auth: admin,
            payload: { username: 'reader', role: 'subscriber', password: PASSWORD },
          });
          assert.equal(made.statusCode, 201, made.body);
          const session = await t.request({
            method: 'POST',
            url: `${ADMIN}/session`,
            payload: { username: 'reader', password: PASSWORD },
          });
          const cookie = /^(cal_session=[^;]+);/.exec(String(session.headers['set-cookie']))![1]!;
          const page = await get('/events/submit/', { cookie });
          assert.equal(page.statusCode, 200);
          const signedIn = parse(page.body);
          assert.equal(signedIn.querySelector('.submit-as')!.text.trim(), 'Submitting as reader');
          assert.equal(signedIn.querySelector('input[name="email"]'), null);
          assert.equal(signedIn.querySelector('input[name="name"]'), null);
          readerCookie = cookie;
          // A program's credentials count too (pages otherwise drop the caller).
          const reader = await t.asUser('subscriber', 'program');
          const byBasic = await t.request({ method: 'GET', url: '/events/submit/', auth: reader.authorization });
          assert.equal(byBasic.statusCode, 200);
          assert.equal(parse(byBasic.body).querySelector('.submit-as')!.text.trim(), 'Submitting as program');
        } finally {
          await setMode('anyone');
        }
      });
    });

    describe('GET /events/submit/challenge', () => {
      it('should answer a fresh ALTCHA challenge, never cached', async () => {
        const res = await get('/events/submit/challenge');
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.match(String(res.headers['content-type']), /^application\/json/);
        assert.equal(typeof res.data.signature, 'string');
        assert.equal(typeof res.data.parameters, 'object');
        assert.equal(res.data.parameters.algorithm, 'PBKDF2/SHA-256');
        const again = await get('/events/submit/challenge');
        assert.notDeepEqual(again.data, res.data);
      });
    });

    describe('confirm and unsubscribe', () => {
      it('should say an unknown confirmation link is not valid', async () => {
        const res = await get('/events/submit/confirm?token=nope');
        assert.equal(res.statusCode, 404);
        assert.equal(
          parse(res.body).querySelector('[role="alert"]')!.text.trim(),
          'This link is not valid, or it has expired.',
        );
      });

      it('should offer a button, then stop the mails by it or by a one-click POST (RFC 8058)', async () => {
        const editor = await t.asUser('editor');
        await t.request({
          method: 'PATCH',
          url: `${ADMIN}/users/${editor.id}`,
          auth: admin,
          payload: { submission_mail: 'each' },
        });
        const secret = await t.app.services.settings.secret('mail');
        const token = `${editor.id}.${createHmac('sha256', secret).update(`unsubscribe\n${editor.id}`).digest('base64url')}`;
        const url = `/fr/events/submit/unsubscribe?token=${token}`;
        const page = parse((await get(url)).body);
        const buttonForm = page.querySelector('.submit-notice form')!;
        assert.equal(buttonForm.getAttribute('method'), 'post');
        assert.equal(buttonForm.getAttribute('action'), url);
        assert.equal(buttonForm.querySelector('button')!.text.trim(), 'Se désabonner');

        // The mail client's one-click POST: no Origin, the body RFC 8058 names.
        const res = await t.request({
          method: 'POST',
          url,
          payload: 'List-Unsubscribe=One-Click',
          headers: FORM_TYPE,
        });
        assert.equal(res.statusCode, 200, res.body.slice(0, 300));
        const user = await t.request({ method: 'GET', url: `${ADMIN}/users/${editor.id}`, auth: admin });
        assert.equal(user.data.submission_mail, 'none');

        const bad = await t.request({
          method: 'POST',
          url: '/events/submit/unsubscribe?token=1.bad',
          headers: FORM_TYPE,
          payload: '',
        });
        assert.equal(bad.statusCode, 404);
        assert.equal(
          parse(bad.body).querySelector('[role="alert"]')!.text.trim(),
          'This unsubscribe link is not valid.',
        );
      });
    });

    // Last: a service that never answers would hold the database's one SQLite connection.
    describe('a signed-in submitter', () => {
      it('should submit as themselves, without a name or an e-mail', { timeout: 10_000 }, async () => {
        assert.ok(readerCookie, 'signed in by the users-only test');
        await setMode('users');
        try {
          const { name: _name, email: _email, ...rest } = GOOD;
          const sent = await post({ ...rest, title: 'From a reader' }, '/events/submit/', { cookie: readerCookie });
          assert.equal(sent.statusCode, 303, sent.body.slice(0, 500));
          assert.equal(sent.headers['location'], '/events/submit/?sent=pending');
        } finally {
          await setMode('anyone');
        }
      });
    });
  });
}
