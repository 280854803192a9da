// Who the dashboard talks as, when the service's answers change under an open page: it is down
// at first, or it stops accepting the token. The page must follow without a reload.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ADMIN_TOKEN, confirmAction, launch, ok, openPage, runOne, uniqueType } from './harness.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Answers every API call as a service whose store is down would. */
function unavailable(route) {
  return route.fulfill({
    status: 503,
    contentType: 'application/problem+json',
    body: JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'the store is not reachable' }),
  });
}

/** Answers every API call as the service does once the token was removed from its configuration. */
function unauthorized(route) {
  return route.fulfill({
    status: 401,
    contentType: 'application/problem+json',
    headers: { 'WWW-Authenticate': 'Bearer realm="jobfoundry"' },
    body: JSON.stringify({ type: 'tag:jobfoundry.io,2026:problem/unauthorized', title: 'Unauthorized', status: 401, detail: 'unknown token' }),
  });
}

/** A token the service takes: a configured one, or (a service without tokens ignores it) any. */
const TOKEN = ADMIN_TOKEN ?? 'made-up-token-value';

/** The page is signed out: the sign-in page says the token was refused, and nothing of before is left. */
async function signedOut(ui) {
  await ui.page.locator('h1').filter({ hasText: 'Sign in' }).waitFor();
  const text = await ui.page.locator('main').textContent();
  assert.match(text, /refused the token this tab was signed in with/);
  assert.match(text, /401 Unauthorized: unknown token/);
  assert.equal(await ui.page.locator('#who [data-who]').count(), 0, 'the header names no one');
  assert.equal(await ui.page.locator('#who').getByRole('link', { name: 'Sign in' }).count(), 1);
  assert.equal(await ui.page.evaluate(() => sessionStorage.getItem('jobfoundry.token')), null, 'the refused token is dropped');
}

test('a page opened while the service is unavailable recovers by itself: name, roles and buttons', async () => {
  const type = uniqueType('recover');
  const job = await ok('POST', `/v1/jobs/${type}`, {});
  const { name } = await ok('GET', '/v1/me');
  const ui = await openPage(browser);
  await ui.page.route('**/v1/**', unavailable);
  await ui.goto(`#/job/${type}/${job.id}`);
  await ui.page.locator('main .problem').filter({ hasText: 'the store is not reachable' }).waitFor();

  await ui.page.unroute('**/v1/**', unavailable);
  // No reload, no navigation: the page asks again on its own and draws the job with what the
  // token may do.
  await ui.page.locator(`#who [data-who="${name}"]`).waitFor();
  await ui.page.getByRole('button', { name: 'Cancel', exact: true }).waitFor();
  await ui.page.locator('#live[data-status="live"]').waitFor();
  ui.check();
  await ui.close();
});

test('a token the service stops taking signs the tab out: the overview gives way to the sign-in page', async () => {
  const type = uniqueType('refused');
  await ok('POST', `/v1/jobs/${type}`, {});
  const { name } = await ok('GET', '/v1/me');
  const ui = await openPage(browser, { token: TOKEN });
  await ui.goto('#/');
  await ui.page.locator(`#types tr[data-type="${type}"]`).waitFor();
  await ui.page.locator(`#who [data-who="${name}"]`).waitFor();

  await ui.page.route('**/v1/**', unauthorized);
  await signedOut(ui); // at the overview's next poll
  assert.equal(await ui.page.locator('#types').count(), 0, 'no counts of before are left');

  // Signing in again (the service takes the token once more) brings the page back.
  await ui.page.unroute('**/v1/**', unauthorized);
  await ui.page.locator('#token').fill(TOKEN);
  await ui.page.locator('#signin').getByRole('button', { name: 'Sign in' }).click();
  await ui.page.locator(`#types tr[data-type="${type}"]`).waitFor();
  await ui.page.locator(`#who [data-who="${name}"]`).waitFor();
  ui.check();
  await ui.close();
});

test('a token the service stops taking signs the tab out when an action is refused with 401', async () => {
  const type = uniqueType('refused-action');
  const job = await ok('POST', `/v1/jobs/${type}`, {});
  const ui = await openPage(browser, { token: TOKEN });
  await ui.goto(`#/job/${type}/${job.id}`);
  await ui.page.locator('#live[data-status="live"]').waitFor();

  await ui.page.route('**/v1/**', unauthorized);
  await confirmAction(ui.page, 'Cancel', 'Cancel job');
  await signedOut(ui);
  assert.equal(await ui.page.locator('#actions').count(), 0, 'no button of before is left');
  ui.check();
  await ui.close();
});

test('signing out and in again starts the throughput afresh, and nothing is polled while signed out', async () => {
  const type = uniqueType('samples');
  await ok('POST', `/v1/jobs/${type}`, {});
  const ui = await openPage(browser, { token: TOKEN });
  await ui.goto('#/');
  await ui.page.locator(`#types tr[data-type="${type}"]`).waitFor();
  await runOne(type, 'succeeded');
  const rate = () => ui.page.locator('[data-total-rate]').textContent();
  await ui.page.waitForFunction(() => Number(document.querySelector('[data-total-rate]')?.textContent) > 0);

  const polls = [];
  ui.page.on('request', (request) => { if (new URL(request.url()).pathname === '/v1/types') polls.push(request.url()); });
  await ui.page.getByRole('button', { name: 'Sign out' }).click();
  if (ADMIN_TOKEN) {
    // The service wants a token: nothing is shown, so nothing is polled (the sampler's interval is 3 s).
    await ui.page.locator('#signin').waitFor();
    polls.length = 0;
    await ui.page.waitForTimeout(4000);
    assert.deepEqual(polls, [], 'no counts are polled while signed out');
  } else {
    await ui.page.locator('#who').getByRole('link', { name: 'Sign in' }).waitFor();
  }
  await ui.page.locator('#who').getByRole('link', { name: 'Sign in' }).click();
  await ui.page.locator('#token').fill(TOKEN);
  await ui.page.locator('#signin').getByRole('button', { name: 'Sign in' }).click();

  // Counted from this sign-in only: nothing finished since, so once two polls are in the rate is 0
  // and the chart has no bar above the axis.
  await ui.page.locator(`#types tr[data-type="${type}"]`).waitFor();
  await ui.page.waitForFunction(() => document.querySelector('[data-total-rate]')?.textContent !== '—');
  assert.equal(await rate(), '0');
  const heights = await ui.page.locator('.summary svg rect.bar').evaluateAll((bars) => bars.map((bar) => bar.getAttribute('height')));
  assert.ok(heights.every((height) => Number(height) === 0), `bars: ${heights}`);
  ui.check();
  await ui.close();
});
