import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserBackends } from '../helpers/app.js';
import {
  ADMIN_PASSWORD,
  browserSkip,
  choose,
  eventually,
  launchChromium,
  openPage,
  settle,
  signedInContext,
  startAdmin,
  type AdminService,
  type PageProblems,
  checkScreen,
} from '../helpers/admin-browser.js';
import type { SubmissionFields } from '../../src/modules/submissions/submission.schema.js';
import { BLANK_SUBMISSION } from '../helpers/submission.js';

/**
 * Issue 29's moderation in the admin, in Debian's Chromium: events sent through the public form
 * (POST /events/submit/, as a browser without JavaScript sends it) wait in the Pending queue with
 * their submitter's contact and checks; an editor merges a new venue, approves one (published),
 * rejects one with a reason (trashed), marks one as spam (its e-mail then refused); the
 * administrator's settings and a moderator's choice of submission e-mails. Every result is read
 * back through the REST API, not only from the screen.
 */

const NS = '/cal/events/v1';
const ADMIN_NS = '/cal/admin/v1';
const EDITOR = { username: 'moda', password: 'moda-pass-2027' };

/** The form as a browser without JavaScript posts it: every field a string, the honeypot empty, no ALTCHA payload. */
function formBody(fields: Partial<SubmissionFields>): string {
  const all: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...BLANK_SUBMISSION, timezone: 'Europe/Paris', ...fields }))
    if (typeof value === 'string') all[key] = value;
  return new URLSearchParams(all).toString();
}

/** The menu's entry to the queue, with its count (react-admin's menu entries are menu items that link). */
function pendingEntry(page: Page) {
  const name = /^Pending submissions/;
  return page.getByRole('menuitem', { name }).or(page.getByRole('link', { name })).first();
}

/**
 * Shows the queue's tab of `state` (the list remembers the last tab, as react-admin keeps a list's
 * filters) and waits for its rows: the list asks after a short debounce, so for that answer.
 */
async function showTab(page: Page, name: string, state: string): Promise<void> {
  const tab = page.getByRole('tab', { name, exact: true });
  if ((await tab.getAttribute('aria-selected')) === 'true') return;
  const answered = page.waitForResponse(
    (r) =>
      /\/cal\/admin\/v1\/submissions\?/.test(r.url()) &&
      r.url().includes(`state=${state}&`) &&
      r.url().includes('per_page=25'),
  );
  await tab.click();
  await answered;
  await settle(page);
}

for (const backend of browserBackends()) {
  describe(`moderating public submissions in the admin [${backend}]`, { skip: browserSkip }, () => {
    let s: AdminService;
    let browser: Browser;
    let admin: string;
    let townHallId: number;
    let artsId: number;
    let desk: Promise<BrowserContext> | null = null;
    const started = performance.now();

    async function api(
      method: 'GET' | 'POST' | 'PATCH',
      url: string,
      payload?: object,
      auth: string | undefined = admin,
    ) {
      const res = await s.t.request({ method, url, ...(payload ? { payload } : {}), auth });
      assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.data;
    }

    /** POST /events/submit/ from `ip` (each its own address: the per-address limit is not under test here). */
    function submit(fields: Partial<SubmissionFields>, ip: string) {
      return s.t.request({
        method: 'POST',
        url: '/events/submit/',
        remoteAddress: ip,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: formBody(fields),
      });
    }

    async function allSubmissions(): Promise<any[]> {
      return api('GET', `${ADMIN_NS}/submissions?state=all&per_page=100`);
    }

    async function submissionTitled(title: string): Promise<any> {
      const found = (await allSubmissions()).filter((x) => x.event.title === title);
      assert.equal(found.length, 1, `one submission of ${title}`);
      return found[0];
    }

    /** An event in any status, trash included (a trashed event's own route answers 403 or 404). */
    async function eventById(id: number): Promise<any> {
      const list = await api('GET', `${NS}/events?include=${id}&status=publish,future,draft,pending,private,trash`);
      assert.equal(list.events.length, 1, `event ${id} listed`);
      return list.events[0];
    }

    function editorDesk(): Promise<BrowserContext> {
      desk ??= signedInContext(browser, s.base, EDITOR.username, EDITOR.password);
      return desk;
    }

    async function open(path: string, context?: BrowserContext): Promise<{ page: Page; problems: PageProblems }> {
      const opened = await openPage(context ?? (await editorDesk()));
      await opened.page.goto(`${s.base}/admin${path}`);
      await settle(opened.page);
      return opened;
    }

    /** From the queue, the submission's own screen (a row opens it). */
    async function openFromQueue(title: string): Promise<{ page: Page; problems: PageProblems }> {
      const opened = await open('/submissions');
      await showTab(opened.page, 'Pending', 'pending');
      await opened.page
        .getByRole('row', { name: new RegExp(title) })
        .first()
        .click();
      await opened.page.waitForURL(/\/admin\/submissions\/\d+\/show/);
      await settle(opened.page);
      return opened;
    }

    /** A decision's button, then back on the queue once the API has it. */
    async function backOnQueue(page: Page): Promise<void> {
      await page.waitForURL(/\/admin\/submissions\/?(\?.*)?$/, { timeout: 10_000 });
      await settle(page);
    }

    before(async () => {
      s = await startAdmin(backend);
      admin = (await s.t.asUser('administrator')).authorization;
      await api('PATCH', `${ADMIN_NS}/settings`, { submissions: 'anyone' });
      await api('POST', `${ADMIN_NS}/users`, {
        username: EDITOR.username,
        role: 'editor',
        email: 'moda@example.org',
        password: EDITOR.password,
      });
      townHallId = (await api('POST', `${NS}/venues`, { venue: 'Town Hall', city: 'Springfield', status: 'publish' }))
        .id;
      artsId = (await api('POST', `${NS}/organizers`, { organizer: 'Springfield Arts', status: 'publish' })).id;
      const common = { start: '2027-06-05T19:00', end: '2027-06-05T21:00', timezone: 'Europe/Paris' };
      const sent: [Partial<SubmissionFields>, string][] = [
        [
          {
            ...common,
            title: 'Harbour Lantern Walk',
            description: 'Lanterns along the harbour.\n\nBring your own: https://example.org/lanterns',
            venue_name: 'Harbour Steps',
            venue_address: '1 Quay Street',
            venue_city: 'Springfield',
            organizer_name: 'Lantern Club',
            organizer_email: 'club@example.net',
            name: 'Lena Lantern',
            email: 'lena@example.net',
          },
          '198.51.100.11',
        ],
        [{ ...common, title: 'Basement Noise Night', name: 'Noah Noise', email: 'noah@example.net' }, '198.51.100.12'],
        [{ ...common, title: 'Cheap Watches Party', name: 'Sam Spam', email: 'sam@spam.example' }, '198.51.100.13'],
      ];
      for (const [fields, ip] of sent) {
        const res = await submit(fields, ip);
        assert.ok(res.statusCode < 400, `submitting ${fields.title}: ${res.statusCode} ${res.body.slice(0, 500)}`);
      }
      browser = await launchChromium();
    });

    after(async () => {
      await (await desk)?.close();
      await browser?.close();
      await s?.close();
      console.log(`moderation browser test [${backend}]: ${Math.round(performance.now() - started)} ms`);
    });

    it('lists what waits under Pending, with the submitter’s e-mail and the checks', async () => {
      const { page, problems } = await open('/');
      const menu = pendingEntry(page);
      await eventually(async () => assert.match((await menu.textContent()) ?? '', /Pending submissions \(3\)/));
      await menu.click();
      await page.waitForURL(/\/admin\/submissions/);
      await settle(page);
      await page.getByRole('heading', { level: 1, name: 'Pending' }).waitFor();
      assert.equal(
        await page.getByRole('tab', { name: 'Pending', exact: true }).getAttribute('aria-selected'),
        'true',
        'the pending tab is the default',
      );
      const row = page.getByRole('row', { name: /Harbour Lantern Walk/ });
      await row.waitFor();
      await row.getByText('lena@example.net').waitFor();
      await row.getByText('Lena Lantern').waitFor();
      // Sent without JavaScript: the proof of work was not solved.
      await row.getByText('Unverified', { exact: true }).waitFor();
      await row.getByText('1 link', { exact: true }).waitFor();
      assert.equal(await page.getByRole('row', { name: /Basement Noise Night|Cheap Watches Party/ }).count(), 2);
      // Nothing is approved yet; every state has its tab.
      await showTab(page, 'Approved', 'approved');
      assert.equal(await page.getByRole('row', { name: /Harbour Lantern Walk/ }).count(), 0);
      await showTab(page, 'Pending', 'pending');
      problems.assertNone('the pending queue');
      await page.close();
    });

    it('merges the new venue and organizer into existing ones, then approves: the event is public and published', async () => {
      const before = await submissionTitled('Harbour Lantern Walk');
      assert.equal(before.state, 'pending');
      assert.ok(before.new_venue, 'the submission created its venue');
      assert.equal(before.new_organizers.length, 1, 'and its organizer');
      const { page, problems } = await openFromQueue('Harbour Lantern Walk');
      await page.getByText('lena@example.net').first().waitFor();
      await choose(page, 'Merge venue into', 'Town Hall', 'Town');
      await page.getByRole('button', { name: 'Merge venue', exact: true }).click();
      await eventually(async () =>
        assert.equal((await submissionTitled('Harbour Lantern Walk')).event.venue?.id, townHallId),
      );
      await settle(page);
      await choose(page, 'Merge organizers into', 'Springfield Arts', 'Spring');
      await page.getByRole('button', { name: 'Merge organizers', exact: true }).click();
      await eventually(async () =>
        assert.deepEqual(
          (await submissionTitled('Harbour Lantern Walk')).event.organizers.map((o: any) => o.id),
          [artsId],
        ),
      );
      await settle(page);
      await page.getByRole('button', { name: 'Approve', exact: true }).click();
      await backOnQueue(page);
      const after = await eventually(async () => {
        const read = await submissionTitled('Harbour Lantern Walk');
        assert.equal(read.state, 'approved');
        return read;
      });
      const anonymous = await s.t.request({ method: 'GET', url: `${NS}/events/${after.event_id}` });
      assert.equal(anonymous.statusCode, 200, anonymous.body);
      assert.equal(anonymous.data.status, 'publish');
      assert.equal(anonymous.data.venue.id, townHallId);
      assert.deepEqual(
        anonymous.data.organizer.map((o: any) => o.id),
        [artsId],
      );
      // Decided: gone from the queue, and the menu's count follows.
      await eventually(async () =>
        assert.equal(await page.getByRole('row', { name: /Harbour Lantern Walk/ }).count(), 0),
      );
      await eventually(async () => assert.match((await pendingEntry(page).textContent()) ?? '', /\(2\)/));
      problems.assertNone('merging and approving a submission');
      await page.close();
    });

    it('rejects one with a reason: the event goes to the trash', async () => {
      const { page, problems } = await openFromQueue('Basement Noise Night');
      await page.getByRole('button', { name: 'Reject', exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Reason' }).fill('A private party, not a public event.');
      await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
      await backOnQueue(page);
      const read = await eventually(async () => {
        const found = await submissionTitled('Basement Noise Night');
        assert.equal(found.state, 'rejected');
        return found;
      });
      assert.equal(read.reason, 'A private party, not a public event.');
      assert.equal((await eventById(read.event_id)).status, 'trash');
      const anonymous = await s.t.request({ method: 'GET', url: `${NS}/events/${read.event_id}` });
      assert.ok(anonymous.statusCode >= 400, `a rejected event is not public: ${anonymous.statusCode}`);
      problems.assertNone('rejecting a submission');
      await page.close();
    });

    it('marks one as spam: the event is trashed and the same e-mail is refused afterwards', async () => {
      const { page, problems } = await openFromQueue('Cheap Watches Party');
      await page.getByRole('button', { name: 'Spam', exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Mark as spam' }).click();
      await backOnQueue(page);
      const read = await eventually(async () => {
        const found = await submissionTitled('Cheap Watches Party');
        assert.equal(found.state, 'spam');
        return found;
      });
      assert.equal((await eventById(read.event_id)).status, 'trash');
      // A decided submission takes no other decision.
      const again = await s.t.request({
        method: 'PATCH',
        url: `${ADMIN_NS}/submissions/${read.id}`,
        payload: { state: 'approved' },
        auth: admin,
      });
      assert.equal(again.statusCode, 409, again.body);
      // From another address: the e-mail alone is blocked.
      const count = (await allSubmissions()).length;
      const retry = await submit(
        {
          title: 'Cheap Watches Party Again',
          start: '2027-07-01T19:00',
          end: '2027-07-01T21:00',
          name: 'Sam Spam',
          email: 'sam@spam.example',
        },
        '203.0.113.99',
      );
      assert.equal(retry.statusCode, 403, `the spammer's e-mail is refused: ${retry.statusCode}`);
      assert.equal((await allSubmissions()).length, count, 'nothing stored');
      problems.assertNone('marking a submission as spam');
      await page.close();
    });

    it('answers with an empty pending queue once all are decided, the other states a tab away', async () => {
      const { page, problems } = await open('/submissions');
      await page.getByRole('tab', { name: 'Pending', exact: true }).waitFor();
      await showTab(page, 'Pending', 'pending');
      assert.equal(await page.getByRole('row', { name: /Harbour|Basement|Cheap/ }).count(), 0);
      await showTab(page, 'All', 'all');
      await eventually(async () =>
        assert.equal(await page.getByRole('row', { name: /Harbour|Basement|Cheap/ }).count(), 3),
      );
      await showTab(page, 'Spam', 'spam');
      await eventually(async () =>
        assert.equal(await page.getByRole('row', { name: /Harbour|Basement|Cheap/ }).count(), 1),
      );
      problems.assertNone('the queue by state');
      await page.close();
    });

    it('lets a moderator choose submission e-mails on their profile', async () => {
      const { page, problems } = await open('/profile');
      await choose(page, 'Submission e-mails', 'Daily digest');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await settle(page);
      const users: any[] = await api('GET', `${ADMIN_NS}/users`);
      const id = users.find((u) => u.username === EDITOR.username).id;
      await eventually(async () =>
        assert.equal((await api('GET', `${ADMIN_NS}/users/${id}`)).submission_mail, 'digest'),
      );
      problems.assertNone('choosing submission e-mails');
      await page.close();
    });

    it('shows the administrator the submission settings and that mail is off', async () => {
      const context = await signedInContext(browser, s.base, s.adminUser, ADMIN_PASSWORD);
      const { page, problems } = await open('/settings', context);
      await page.getByText('Mail is off (set CAL_SMTP_URL and CAL_MAIL_FROM)').waitFor();
      const mode = page.getByRole('combobox', { name: 'Public submissions' });
      assert.match((await mode.textContent()) ?? '', /Anyone/);
      assert.equal(
        await page
          .getByRole('switch', { name: "Confirm submitters' e-mail" })
          .or(page.getByRole('checkbox', { name: "Confirm submitters' e-mail" }))
          .first()
          .isChecked(),
        false,
      );
      await choose(page, 'Public submissions', 'Signed-in users');
      await page.getByRole('spinbutton', { name: 'Block spammers for (days)' }).fill('10');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await settle(page);
      await eventually(async () => {
        const settings = await api('GET', `${ADMIN_NS}/settings`);
        assert.equal(settings.submissions, 'users');
        assert.equal(settings.spam_block_days, 10);
      });
      problems.assertNone('the submission settings');
      await page.close();
      await context.close();
    });

    it('has no serious axe violation on the queue and a submission, and fits 375 px', async () => {
      const id = (await submissionTitled('Harbour Lantern Walk')).id;
      const found = { axe: [] as string[], overflows: [] as string[] };
      const { page, problems } = await openPage(await editorDesk());
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        for (const [screen, path] of [
          ['submissions', '/submissions?filter=%7B%22state%22%3A%22all%22%7D'],
          ['submission', `/submissions/${id}/show`],
        ] as const) {
          await checkScreen(page, `${s.base}/admin${path}`, screen, found);
        }
      }
      problems.assertNone('the moderation screens');
      await page.close();
      assert.deepEqual(found, { axe: [], overflows: [] });
    });
  });
}
