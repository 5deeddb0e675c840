import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { createTestApp, type Backend, type TestApp } from './app.js';
import { ensureAdministrator } from '../../src/modules/users/user.service.js';

/**
 * The admin single-page application in a real browser: the admin built once per test process
 * with Vite into a temp folder, the service serving it on a real port, Debian's Chromium driven by
 * playwright-core, and the checks every screen gets (axe-core, no sideways scrolling at 375 px,
 * screenshots, no console error or CSP violation).
 */

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
/** The reason to skip the browser tests, or false when the browser is there (`.ci/run` installs it). */
export const browserSkip: string | false = fs.existsSync(CHROMIUM)
  ? false
  : `no browser at ${CHROMIUM} (apt-get install chromium)`;

/** CAL_ADMIN_PASSWORD of the test service: the administrator's login password too. */
export const ADMIN_PASSWORD = 'admin-browser-pass-2027';
export const SHOTS_DIR = fileURLToPath(new URL('../../test-output/admin/', import.meta.url));
const CONFIG_FILE = fileURLToPath(new URL('../../admin/vite.config.ts', import.meta.url));

/** The little of the DOM the checks read, typed here (the project's types have no DOM). */
interface Dom {
  document: {
    activeElement: DomElement | null;
    documentElement: { scrollWidth: number; clientWidth: number };
  };
  getComputedStyle(element: unknown): {
    outlineStyle: string;
    outlineWidth: string;
    boxShadow: string;
    borderColor: string;
  };
}
interface DomElement {
  className: unknown;
  tagName: string;
  closest(selector: string): unknown;
}

let built: Promise<string> | null = null;

/**
 * The admin built once per process (each test file is one), into a temp folder removed at exit.
 * CAL_TEST_ADMIN_BUILD names a folder already built instead, to iterate on a test without rebuilding.
 */
export function buildAdmin(): Promise<string> {
  const prebuilt = process.env['CAL_TEST_ADMIN_BUILD'];
  if (prebuilt) return Promise.resolve(prebuilt);
  built ??= (async () => {
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-admin-build-'));
    process.once('exit', () => fs.rmSync(outDir, { recursive: true, force: true }));
    const started = performance.now();
    await build({ configFile: CONFIG_FILE, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    console.log(`admin built in ${Math.round(performance.now() - started)} ms`);
    return outDir;
  })();
  return built;
}

export interface AdminService {
  t: TestApp;
  /** http://127.0.0.1:<port> */
  base: string;
  adminUser: string;
  close(): Promise<void>;
}

/** The service with the built admin, listening on a free port, its administrator ensured as at start-up. */
export async function startAdmin(backend: Backend): Promise<AdminService> {
  const adminDir = await buildAdmin();
  const t = await createTestApp(backend, { CAL_ADMIN_PASSWORD: ADMIN_PASSWORD }, { adminDir });
  // server.ts does this at start-up; the test app is built without server.ts.
  await ensureAdministrator(t.storage.db, t.config.adminUser, t.config.adminPassword);
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, base, adminUser: t.config.adminUser, close: () => t.close() };
}

/** Debian's Chromium, headless; as root in CI, and no calls home from a machine without a network. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A context as a person in England would have it: English names for the controls, one fixed zone. */
export async function newContext(browser: Browser, width = 1280): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-GB', timezoneId: 'UTC' });
  // A control that is not there fails the step in seconds, not after Playwright's 30.
  context.setDefaultTimeout(8000);
  return context;
}

/**
 * What a page reported that it should not have: console errors, uncaught exceptions and CSP
 * violations (the admin's policy forbids inline script and eval: a violation is a bug, not noise).
 * The browser logs every failed request as a console error; a 401 from the session route is
 * expected (the sign-in screen asks whether a session exists; a wrong password is refused), and a
 * test may expect others with `allow`.
 */
export class PageProblems {
  readonly found: string[] = [];
  private readonly allowed: RegExp[] = [
    /status of 401 .*\/cal\/admin\/v1\/session/,
    // The browser's own probe, not the admin's request: the service has no favicon.
    /status of 404 .*\/favicon\.ico$/,
  ];

  static async watch(page: Page): Promise<PageProblems> {
    const problems = new PageProblems();
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const where = message.location().url;
      const text = `${message.text()} ${where}`;
      if (!problems.allowed.some((pattern) => pattern.test(text))) problems.found.push(`console error: ${text}`);
    });
    page.on('pageerror', (error) => problems.found.push(`uncaught: ${error.message}`));
    await page.exposeFunction('__calCspViolation', (text: string) => problems.found.push(`CSP violation: ${text}`));
    // Playwright's init scripts are not the page's, so the admin's policy does not block this one.
    await page.addInitScript({
      content:
        "document.addEventListener('securitypolicyviolation', (e) => window.__calCspViolation(" +
        "e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber));",
    });
    return problems;
  }

  allow(pattern: RegExp): void {
    this.allowed.push(pattern);
  }

  /** Fails with every problem seen since the last call, then starts afresh. */
  assertNone(what: string): void {
    const seen = this.found.splice(0);
    assert.deepEqual(seen, [], `${what}: the page reported problems`);
  }
}

/** A page in `context` with its problems watched. */
export async function openPage(context: BrowserContext): Promise<{ page: Page; problems: PageProblems }> {
  const page = await context.newPage();
  const problems = await PageProblems.watch(page);
  return { page, problems };
}

/** The admin's sign-in screen filled in by the accessible names the issue fixes. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  // By role and accessible name: a required field's label also holds an asterisk hidden from assistive technology.
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill(username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Waits until the screen has loaded what it shows: no request in flight, no progress indicator. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page
    .locator('[role=progressbar]')
    .first()
    // Up to 15 s: on a loaded CI machine a list has taken more than 5, and axe then judged the
    // screen half-loaded (its loading states have a test of their own).
    .waitFor({ state: 'detached', timeout: 15_000 })
    .catch(() => undefined);
  await page.waitForLoadState('networkidle');
}

/**
 * The serious and critical axe-core violations of the screen as shown, each with its rule and the
 * elements it found ("" when there are none), and every violation logged.
 */
export async function axeFindings(page: Page, screen: string): Promise<string[]> {
  const started = performance.now();
  // Legacy mode runs axe in the page itself: the admin has no frames, and it saves a blank page per run.
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    // Every node of a violation, one of each pass (axe skips collecting the rest).
    .options({ resultTypes: ['violations'] })
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  for (const v of results.violations) console.log(`axe ${screen}: ${v.id} (${v.impact}) ×${v.nodes.length}`);
  console.log(
    `axe ${screen}: ${results.violations.length} violations, ${results.passes.length} rules passed (${Math.round(performance.now() - started)} ms)`,
  );
  return serious.map(
    (v) =>
      `${screen}: ${v.id} (${v.impact}) at ${v.nodes
        .slice(0, 5)
        .map((node) => node.target.join(' '))
        .join(' | ')}`,
  );
}

/** test-output/admin/<screen>-<width>.png, the whole page. */
export async function screenshot(page: Page, screen: string): Promise<string> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const file = path.join(SHOTS_DIR, `${screen}-${width}.png`);
  await capture(page, file);
  assert.ok(fs.statSync(file).size > 3000, `${file} is nearly empty`);
  return file;
}

/**
 * A whole-page screenshot to `file`. Under load (several browser suites at once in CI) Chromium
 * sometimes answers "Unable to capture screenshot" when no compositor frame is ready yet; the
 * page itself is fine, so the capture is tried again after a frame or two, three times at most.
 */
export async function capture(page: Page, file: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.screenshot({ path: file, fullPage: true });
      return;
    } catch (error) {
      if (attempt >= 3 || !/Unable to capture screenshot/i.test(String(error))) throw error;
      await page.waitForTimeout(250 * attempt);
    }
  }
}

/** How far the page scrolls sideways (0 when it fits its width). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = (globalThis as unknown as Dom).document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });
}

/**
 * Opens one screen at the page's width and checks it: axe's serious findings, at 375 px whether it
 * scrolls sideways, and its screenshot; what it finds is added to `found`.
 */
export async function checkScreen(
  page: Page,
  url: string,
  screen: string,
  found: { axe: string[]; overflows: string[] },
): Promise<void> {
  await page.goto(url);
  await settle(page);
  const width = page.viewportSize()?.width ?? 0;
  found.axe.push(...(await axeFindings(page, `${screen} @${width}`)));
  if (width === 375) {
    const overflow = await sidewaysOverflow(page);
    if (overflow > 0) found.overflows.push(`${screen} scrolls sideways by ${overflow}px`);
  }
  await screenshot(page, screen);
}

/** The focused element as the accessibility tree names it, e.g. `textbox "Username"`. */
export async function focused(page: Page): Promise<string> {
  // The focus may move between finding the element and describing it (a screen still loading).
  const snapshot = await page
    .locator('*:focus')
    .first()
    .ariaSnapshot({ timeout: 1000 })
    .catch(() => '');
  return snapshot.replace(/^- /, '').split('\n')[0]!;
}

/**
 * Whether the focused element shows it: an outline, a focus ring drawn as a shadow, MUI's
 * keyboard-focus class (its ripple) or an input whose field is marked focused (a thicker border).
 */
export function focusVisible(page: Page): Promise<{ visible: boolean; how: string }> {
  return page.evaluate(() => {
    const dom = globalThis as unknown as Dom;
    const element = dom.document.activeElement;
    if (!element || element.tagName === 'BODY') return { visible: false, how: 'nothing focused' };
    const style = dom.getComputedStyle(element);
    const className = typeof element.className === 'string' ? element.className : '';
    if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1)
      return { visible: true, how: `outline ${style.outlineStyle} ${style.outlineWidth}` };
    if (style.boxShadow && style.boxShadow !== 'none') return { visible: true, how: `box-shadow ${style.boxShadow}` };
    if (/Mui-focusVisible/.test(className)) return { visible: true, how: 'Mui-focusVisible' };
    if (element.closest('.Mui-focused')) return { visible: true, how: 'inside .Mui-focused' };
    return { visible: false, how: `${element.tagName}.${className}: no outline, shadow or focus class` };
  });
}

/** Tabs until the focused element's description matches, at most `limit` times; returns what took the focus. */
export async function tabTo(page: Page, target: RegExp, limit = 60): Promise<string> {
  const seen: string[] = [];
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    seen.push(now);
    if (target.test(now)) return now;
  }
  assert.fail(`Tab never reached ${target} in ${limit} presses; focus went: ${seen.join(' → ')}`);
}

/**
 * Picks `option` in the control named `name`, whichever kind the screen uses: a native select, a
 * MUI select (a combobox that opens a listbox) or an autocomplete (a combobox one types into).
 */
export async function choose(
  page: Page,
  name: string | RegExp,
  option: string | RegExp,
  typed?: string,
): Promise<void> {
  const control = page.getByRole('combobox', { name, exact: typeof name === 'string' }).first();
  const tag = await control.evaluate((element) => (element as unknown as DomElement).tagName);
  if (tag === 'SELECT') {
    const value = await control
      .locator('option', { hasText: option })
      .first()
      .evaluate((element) => (element as unknown as { value: string }).value);
    await control.selectOption(value);
    return;
  }
  if (tag === 'INPUT') {
    await control.click();
    await control.fill(typed ?? (typeof option === 'string' ? option : ''));
  } else {
    await control.click();
  }
  await page.getByRole('option', { name: option }).first().click();
}

/**
 * The form field labelled `name`, exactly: a required field's label ends in an asterisk that
 * assistive technology does not read, so "Title *" is the field named "Title".
 */
export function field(page: Page, name: string): Locator {
  return page.getByLabel(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`));
}

/** Fills a date-time field: a native datetime-local input takes `YYYY-MM-DDTHH:MM`. */
export async function fillDateTime(field: Locator, value: string): Promise<void> {
  const type = await field.getAttribute('type');
  if (type === 'datetime-local') await field.fill(value);
  else if (type === 'date') await field.fill(value.slice(0, 10));
  else {
    await field.click();
    await field.fill(value.replace('T', ' '));
  }
}

/**
 * A context signed in to the admin at `base` as `username` (its session cookie kept), checked to
 * have reported no problem on the way.
 */
export async function signedInContext(
  browser: Browser,
  base: string,
  username: string,
  password: string,
  width = 1280,
): Promise<BrowserContext> {
  const context = await newContext(browser, width);
  const { page, problems } = await openPage(context);
  await page.goto(`${base}/admin/`);
  await signIn(page, username, password);
  await page.waitForURL((url) => !url.pathname.endsWith('/login'), { timeout: 10_000 });
  await settle(page);
  problems.assertNone(`signing in as ${username}`);
  await page.close();
  return context;
}

/** Retries `check` until it passes or `ms` have gone (a screen's request may still be in flight). */
export async function eventually<T>(check: () => Promise<T>, ms = 8000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
