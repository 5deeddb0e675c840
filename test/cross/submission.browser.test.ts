import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { createTestApp, type TestApp } from '../helpers/app.js';
import {
  axeFindings,
  browserSkip,
  buildAdmin,
  eventually,
  field,
  launchChromium,
  newContext,
  openPage,
  screenshot,
  settle,
  sidewaysOverflow,
  signedInContext,
} from '../helpers/admin-browser.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';

/**
 * Issue 29 end to end, in Debian's Chromium: a French visitor sends an event through the public
 * form with JavaScript (ALTCHA's proof of work solved in the page), an English one without
 * (the form answered again with its problems beside the fields and everything typed kept), the
 * refusals a person sees (the honeypot, a duplicate, the per-address limit), and an editor in the
 * admin approving one and rejecting another: the submitters' mails arrive at a real SMTP server,
 * in their language; last, the editor, signed in, sends through the form an event with no end (an
 * hour long) past the address's limit, as moderators may. SQLite only: the same routes and service
 * run on PostgreSQL in the module tests, and a browser run is CI's dearest minute.
 */

const ADMIN_NS = '/cal/admin/v1';
const EDITOR = { username: 'moderator', password: 'moderator-pass-2027' };
/** Stored submissions one address may send an hour: small, so the limit is reached in a few steps. */
const LIMIT = 3;

/** A submission as the admin API answers it, the little read here. */
interface Stored {
  id: number;
  lang: string;
  state: string;
  reason: string;
  submitter: { name: string; email: string; ip: string };
  checks: { verified: boolean };
  event: { id: number; title: string; start_date: string; end_date: string };
}

describe('public submissions end to end in a browser [sqlite]', { skip: browserSkip }, () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let base: string;
  let browser: Browser;
  let editor: string;
  /** A visitor without JavaScript (the refusals happen there too: no proof of work to wait for). */
  let plain: BrowserContext;
  /** The editor signed in to the admin. */
  let desk: BrowserContext;
  const started = performance.now();

  async function submissions(): Promise<Stored[]> {
    const res = await t.request({ url: `${ADMIN_NS}/submissions?state=all&per_page=100`, auth: editor });
    assert.equal(res.statusCode, 200, res.body);
    return res.data;
  }

  async function stored(title: string): Promise<Stored> {
    const found = (await submissions()).filter((s) => s.event.title === title);
    assert.equal(found.length, 1, `one submission titled ${title}`);
    return found[0]!;
  }

  /** The mail to `to` whose subject matches, once the outbox's worker has sent it. */
  async function mailTo(to: string, subject: RegExp) {
    return eventually(async () => {
      const mail = smtp.mails.find((m) => m.envelopeTo.includes(to) && subject.test(m.subject ?? ''));
      assert.ok(
        mail,
        `no mail to ${to} matching ${subject}: ${smtp.mails.map((m) => `${m.envelopeTo} «${m.subject}»`).join('; ')}`,
      );
      return mail;
    }, 15_000);
  }

  /** Clicks the form's button and answers the response to its POST (the page then shows it, or follows its 303). */
  async function send(page: Page, button: string): Promise<Response> {
    const posted = page.waitForResponse((r) => r.request().method() === 'POST' && /\/events\/submit\/$/.test(r.url()));
    await page.getByRole('button', { name: button, exact: true }).click();
    const response = await posted;
    await page.waitForLoadState();
    return response;
  }

  /** The English form filled in as a person does it, by the fields' labels. */
  async function fillEnglish(page: Page, values: Record<string, string>): Promise<void> {
    for (const [label, value] of Object.entries(values)) await field(page, label).fill(value);
  }

  /** The form's summary of what went wrong, as one text. */
  async function summary(page: Page): Promise<string> {
    return (await page.locator('.submit-problems[role=alert]').textContent())?.replace(/\s+/g, ' ').trim() ?? '';
  }

  before(async () => {
    smtp = await startSmtp();
    // Not startAdmin: this service needs mail and the limit in its environment, and no administrator login.
    const adminDir = await buildAdmin();
    t = await createTestApp(
      'sqlite',
      {
        CAL_SMTP_URL: smtp.url,
        CAL_MAIL_FROM: 'Calendar <calendar@example.org>',
        CAL_SUBMISSION_LIMIT: String(LIMIT),
      },
      { adminDir },
    );
    // A real port: the browser is another process.
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const admin = (await t.asUser('administrator')).authorization;
    const settings = await t.request({
      method: 'PATCH',
      url: `${ADMIN_NS}/settings`,
      auth: admin,
      payload: { submissions: 'anyone' },
    });
    assert.equal(settings.statusCode, 200, settings.body);
    const created = await t.request({
      method: 'POST',
      url: `${ADMIN_NS}/users`,
      auth: admin,
      payload: { username: EDITOR.username, role: 'editor', email: 'moderator@example.org', password: EDITOR.password },
    });
    assert.ok(created.statusCode < 300, created.body);
    editor = (await t.asUser('editor')).authorization;
    browser = await launchChromium();
    plain = await browser.newContext({ javaScriptEnabled: false, locale: 'en-GB', timezoneId: 'UTC' });
    plain.setDefaultTimeout(8000);
  });

  after(async () => {
    await desk?.close();
    await plain?.close();
    await browser?.close();
    await t?.close();
    await smtp?.stop();
    console.log(`submission browser test: ${Math.round(performance.now() - started)} ms`);
  });

  it('takes an event from the French form with JavaScript, its proof of work solved in the page', async () => {
    const context = await newContext(browser);
    const { page, problems } = await openPage(context);
    await page.goto(`${base}/fr/events/submit/`);
    assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
    await page.getByRole('heading', { level: 1, name: 'Proposer un événement' }).waitFor();
    await field(page, 'Titre').fill('Nuit des étoiles au parc');
    await field(page, 'Début').fill('2027-08-12T21:00');
    await field(page, 'Fin').fill('2027-08-12T23:30');
    await field(page, 'Votre nom').fill('Camille Martin');
    await field(page, 'Votre e-mail').fill('camille@example.fr');
    // The widget starts on the form's first focus and, once the PBKDF2 challenge is solved, puts
    // its payload in the hidden `altcha` field the form posts.
    const payload = page.locator('input[name=altcha]');
    await eventually(async () => assert.notEqual((await payload.inputValue({ timeout: 1000 })) || '', ''), 20_000);
    const response = await send(page, 'Envoyer l’événement');
    assert.equal(response.status(), 303);
    await page.waitForURL(/\/fr\/events\/submit\/\?sent=pending$/);
    assert.match((await page.getByRole('status').textContent()) ?? '', /votre événement attend un modérateur/);
    problems.assertNone('the French form with JavaScript');
    await context.close();

    const submission = await stored('Nuit des étoiles au parc');
    assert.equal(submission.state, 'pending');
    assert.equal(submission.lang, 'fr');
    assert.equal(submission.checks.verified, true, 'the proof of work was solved');
    assert.equal(submission.submitter.email, 'camille@example.fr');
    assert.equal(submission.submitter.ip, '127.0.0.1');
  });

  it('shows the form with no serious axe violation, without sideways scrolling at 375 and 1280 px (screenshots)', async () => {
    const findings: string[] = [];
    for (const width of [1280, 375]) {
      const context = await newContext(browser, width);
      try {
        const page = await context.newPage();
        await page.goto(`${base}/events/submit/`);
        await page.getByRole('button', { name: 'Submit event' }).waitFor();
        findings.push(...(await axeFindings(page, `submit-form@${width}`)));
        assert.equal(await sidewaysOverflow(page), 0, `the form scrolls sideways at ${width} px`);
        await screenshot(page, 'submit-form');
      } finally {
        await context.close();
      }
    }
    assert.deepEqual(findings, []);
  });

  it('answers the form again without JavaScript, the problems beside the fields and everything typed kept', async () => {
    const page = await plain.newPage();
    await page.goto(`${base}/events/submit/`);
    const typed = {
      Description: 'Telescopes on the roof.\n\nClear skies: https://example.org/sky',
      Start: '2027-09-03T20:00',
      End: '2027-09-03T18:00',
      'Venue name': 'Observatory Roof',
      City: 'Springfield',
      Cost: 'Free',
      'Your name': 'Rowan Stargazer',
      'Your email': 'rowan@example.net',
    };
    await fillEnglish(page, typed);
    const refused = await send(page, 'Submit event');
    assert.equal(refused.status(), 400);
    const said = await summary(page);
    assert.match(said, /The event was not sent/);
    assert.match(said, /Title: This field is required\./);
    assert.match(said, /End: The end is before the start\./);
    // Beside each field, tied to it for assistive technology.
    assert.equal(await page.locator('#s-title-error').textContent(), 'This field is required.');
    assert.equal(await page.locator('#s-end-error').textContent(), 'The end is before the start.');
    assert.equal(await field(page, 'Title').getAttribute('aria-invalid'), 'true');
    assert.match((await field(page, 'End').getAttribute('aria-describedby')) ?? '', /\bs-end-error\b/);
    for (const [label, value] of Object.entries(typed))
      assert.equal(await field(page, label).inputValue(), value, `${label} kept`);

    await field(page, 'Title').fill('Rooftop Stargazing');
    await field(page, 'End').fill('2027-09-03T23:00');
    const taken = await send(page, 'Submit event');
    assert.equal(taken.status(), 303);
    await page.waitForURL(/\/events\/submit\/\?sent=pending$/);
    assert.equal(await page.getByRole('status').textContent(), 'Thank you: your event waits for a moderator.');
    await page.close();

    const submission = await stored('Rooftop Stargazing');
    assert.equal(submission.state, 'pending');
    assert.equal(submission.lang, 'en');
    assert.equal(submission.checks.verified, false, 'sent without JavaScript: no proof of work');
    assert.equal(submission.submitter.name, 'Rowan Stargazer');
  });

  it('refuses the honeypot, a duplicate and, past the limit, the same address', async () => {
    const form = async (values: Record<string, string>) => {
      const page = await plain.newPage();
      await page.goto(`${base}/events/submit/`);
      await fillEnglish(page, values);
      return page;
    };
    const count = (await submissions()).length;

    // A robot fills every field it finds, the one people never see included.
    const robot = await form({
      Title: 'Cheap Telescopes Sale',
      Start: '2027-09-10T20:00',
      'Your name': 'Bot',
      'Your email': 'bot@spam.example',
    });
    await robot.locator('input[name=homepage]').fill('https://spam.example', { force: true });
    assert.equal((await send(robot, 'Submit event')).status(), 400);
    assert.match(await summary(robot), /This submission cannot be accepted\./);
    // The summary never names the trap, and the trap comes back empty.
    assert.doesNotMatch(await summary(robot), /Leave this empty/);
    assert.equal(await robot.locator('input[name=homepage]').inputValue(), '');
    await robot.close();

    // The same title and start as the event waiting for a moderator.
    const again = await form({
      Title: 'Rooftop Stargazing',
      Start: '2027-09-03T20:00',
      End: '2027-09-03T22:00',
      'Your name': 'Rowan Again',
      'Your email': 'rowan2@example.net',
    });
    assert.equal((await send(again, 'Submit event')).status(), 409);
    const duplicate = /An event with this title and start is already in the calendar or waiting for a moderator\./;
    assert.match((await again.locator('#s-title-error').textContent()) ?? '', duplicate);
    assert.match(await summary(again), duplicate);
    assert.equal(await field(again, 'Title').inputValue(), 'Rooftop Stargazing');
    await again.close();
    assert.equal((await submissions()).length, count, 'neither refusal stored anything');

    // Every browser request comes from 127.0.0.1: this one reaches the address's hourly limit…
    const last = await form({
      Title: 'Comet Talk',
      Start: '2027-09-17T19:00',
      End: '2027-09-17T20:30',
      'Your name': 'Kit Comet',
      'Your email': 'kit@example.net',
    });
    assert.equal((await send(last, 'Submit event')).status(), 303);
    await last.close();
    assert.equal((await submissions()).length, LIMIT, 'the limit reached');
    // …and the next, whoever writes it, waits an hour.
    const over = await form({
      Title: 'Meteor Shower Picnic',
      Start: '2027-09-24T21:00',
      'Your name': 'Mo Meteor',
      'Your email': 'mo@example.net',
    });
    const limited = await send(over, 'Submit event');
    assert.equal(limited.status(), 429);
    assert.equal(limited.headers()['retry-after'], '3600');
    assert.match(await summary(over), /Too many submissions: please try again later\./);
    assert.equal(await field(over, 'Title').inputValue(), 'Meteor Shower Picnic', 'kept for later');
    await over.close();
    assert.equal((await submissions()).length, LIMIT, 'nothing stored past the limit');
  });

  it('lets an editor approve the French one and reject another in the admin: each submitter is told by mail', async () => {
    desk = await signedInContext(browser, base, EDITOR.username, EDITOR.password);
    const open = async (title: string) => {
      const { page, problems } = await openPage(desk);
      await page.goto(`${base}/admin/submissions`);
      await settle(page);
      await page.getByRole('heading', { level: 1, name: 'Pending' }).waitFor();
      await page
        .getByRole('row', { name: new RegExp(title) })
        .first()
        .click();
      await page.waitForURL(/\/admin\/submissions\/\d+\/show/);
      await settle(page);
      return { page, problems };
    };
    const decided = async (page: Page) => {
      await page.waitForURL(/\/admin\/submissions\/?(\?.*)?$/, { timeout: 10_000 });
      await settle(page);
    };

    const french = await open('Nuit des étoiles au parc');
    await french.page.getByText('camille@example.fr').first().waitFor();
    await french.page.getByRole('button', { name: 'Approve', exact: true }).click();
    await decided(french.page);
    french.problems.assertNone('approving a submission');
    await french.page.close();
    const approved = await eventually(async () => {
      const read = await stored('Nuit des étoiles au parc');
      assert.equal(read.state, 'approved');
      return read;
    });
    const published = await mailTo('camille@example.fr', /a été publié/);
    assert.match(published.subject ?? '', /publié.*Nuit des étoiles au parc/);
    const link = /https?:\/\/\S*?(\/fr\/event\/[^\s/]+\/)/.exec(published.text ?? '');
    assert.ok(link, `the published mail links the event's French page: ${published.text}`);
    // The link leads to the event, now public.
    const eventPage = await t.request({ url: link[1]! });
    assert.equal(eventPage.statusCode, 200, `${link[1]}: ${eventPage.statusCode}`);
    assert.match(eventPage.body, /Nuit des étoiles au parc/);
    assert.ok(approved.event.id > 0);

    const comet = await open('Comet Talk');
    await comet.page.getByRole('button', { name: 'Reject', exact: true }).click();
    const dialog = comet.page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('A members-only talk, not open to the public.');
    await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
    await decided(comet.page);
    comet.problems.assertNone('rejecting a submission');
    await comet.page.close();
    await eventually(async () => assert.equal((await stored('Comet Talk')).state, 'rejected'));
    const rejected = await mailTo('kit@example.net', /not published: Comet Talk/);
    assert.match(rejected.text ?? '', /A members-only talk, not open to the public\./);
    // The one still waiting got its acknowledgement only.
    await mailTo('rowan@example.net', /^Event received: Rooftop Stargazing$/);
    assert.deepEqual(
      smtp.mails.filter((m) => m.envelopeTo.includes('rowan@example.net')).map((m) => m.subject),
      ['Event received: Rooftop Stargazing'],
    );
  });

  it('takes a signed-in moderator’s event without an end through the form: it lasts an hour, past the limit', async () => {
    // The address is at its limit, but moderators are not limited: they may enter a programme
    // through the form, signed in by the admin's session cookie.
    const { page, problems } = await openPage(desk);
    await page.goto(`${base}/events/submit/`);
    await page.getByText(`Submitting as ${EDITOR.username}`).waitFor();
    await field(page, 'Title').fill('Autumn Equinox Walk');
    await field(page, 'Start').fill('2027-09-23T18:00');
    const response = await send(page, 'Submit event');
    assert.equal(response.status(), 303, 'a timed start without an end is taken');
    await page.waitForURL(/\/events\/submit\/\?sent=pending$/);
    problems.assertNone('a moderator submitting through the form');
    await page.close();
    const submission = await stored('Autumn Equinox Walk');
    assert.equal(submission.event.start_date, '2027-09-23 18:00:00');
    assert.equal(submission.event.end_date, '2027-09-23 19:00:00');
  });
});
