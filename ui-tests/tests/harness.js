// What every browser test shares: the service's URL, API calls made by the test itself (to set up
// jobs and to check what the dashboard did), and a Chromium page that fails its test on any
// console error or uncaught exception — a Content-Security-Policy violation is a console error.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chromium } from 'playwright-core';

export const BASE = process.env.JOBFOUNDRY_URL ?? assert.fail('JOBFOUNDRY_URL is not set: run ui-tests/test.sh');
/** Set when the service is started with tokens configured; the tests' own API calls use it. */
export const ADMIN_TOKEN = process.env.JOBFOUNDRY_ADMIN_TOKEN || null;
export const VIEWER_TOKEN = process.env.JOBFOUNDRY_VIEWER_TOKEN || null;

/** Generous: the machine running the tests may be busy; waits end as soon as the page is right. */
export const TIMEOUT = 30_000;

/** A type name no other test uses. */
export function uniqueType(label) {
  return `ui-${label}-${randomBytes(4).toString('hex')}`;
}

/** Calls the API; answers {status, body}. */
export async function api(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (ADMIN_TOKEN) headers.Authorization = `Bearer ${ADMIN_TOKEN}`;
  const response = await fetch(BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = text; }
  return { status: response.status, body: json, headers: response.headers };
}

/** Like api(), but the call must succeed. */
export async function ok(method, path, body) {
  const answer = await api(method, path, body);
  assert.ok(answer.status >= 200 && answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export function jobPath(type, id) {
  return `/v1/jobs/${encodeURIComponent(type)}/${encodeURIComponent(id)}`;
}

/** Takes the next due job of the type as a worker would and finishes it with the outcome. */
export async function runOne(type, outcome, error) {
  const [job] = await ok('POST', '/v1/accept', { types: [type], max: 1, wait: 5000, worker: 'ui-test' });
  assert.ok(job, `no due job of ${type}`);
  return ok('POST', `${jobPath(job.type, job.id)}/finish`, { lease: job.lease, outcome, error });
}

/** Does the service serve this call? A 404 problem without a job or type in it says it does not. */
export async function served(method, path, body) {
  const answer = await api(method, path, body);
  return !(answer.status === 404 && answer.body?.type === 'about:blank') && answer.status !== 405;
}

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--no-first-run'];

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/**
 * A fresh page (its own context: its own sessionStorage) that records console errors, uncaught
 * exceptions and dialogs (alert/confirm/prompt, which the dashboard never opens). check() asserts
 * there were none. An HTTP error status the test provokes on purpose is logged by Chromium as
 * "Failed to load resource: the server responded with a status of …"; those are the API's answers,
 * not the page's faults, and are left out — a CSP violation or a script error is not.
 */
export async function openPage(browser, { viewport = { width: 1280, height: 900 }, colorScheme = 'light', token = ADMIN_TOKEN } = {}) {
  const context = await browser.newContext({ viewport, colorScheme });
  if (token) {
    // As if signed in through the form (security.test.js signs in through it).
    await context.addInitScript((value) => sessionStorage.setItem('jobfoundry.token', value), token);
  }
  const page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  const problems = [];
  const dialogs = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (/^Failed to load resource: the server responded with a status of \d+/.test(message.text())) return;
    problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('dialog', (dialog) => { dialogs.push(`${dialog.type()}: ${dialog.message()}`); dialog.dismiss(); });
  return {
    page,
    problems,
    dialogs,
    async goto(hash) {
      await page.goto(`${BASE}/ui/${hash}`);
    },
    check() {
      assert.deepEqual(problems, [], 'the page logged errors');
      assert.deepEqual(dialogs, [], 'the page opened a browser dialog');
    },
    close: () => context.close(),
  };
}

/** Clicks a page action, confirms it in the page's own dialog. */
export async function confirmAction(page, buttonName, confirmLabel) {
  await page.getByRole('button', { name: buttonName, exact: true }).click();
  const dialog = page.locator('dialog#confirm');
  await dialog.waitFor({ state: 'visible' });
  await dialog.getByRole('button', { name: confirmLabel, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}
