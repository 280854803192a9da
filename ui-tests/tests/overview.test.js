import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch, ok, openPage, runOne, TIMEOUT, uniqueType } from './harness.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** The overview's cell for a type and a state, once the row is there. */
function cell(page, type, state) {
  return page.locator(`#types tr[data-type="${type}"] td[data-count="${state}"]`);
}

test('the overview shows the counts of the API and follows them as jobs are created and finished', async () => {
  const type = uniqueType('overview');
  await ok('PUT', `/v1/types/${type}`, { maxAttempts: 1 });
  for (let i = 0; i < 3; i++) await ok('POST', `/v1/jobs/${type}`, { data: { n: i } });
  await runOne(type, 'failed', 'first failure');
  const counts = (await ok('GET', `/v1/types/${type}`)).counts;
  assert.deepEqual([counts.pending, counts.failed], [2, 1]);

  const ui = await openPage(browser);
  await ui.goto('#/');
  for (const [state, n] of Object.entries(counts)) {
    await ui.page.waitForFunction(([selector, want]) => document.querySelector(selector)?.textContent === want,
      [`#types tr[data-type="${type}"] td[data-count="${state}"]`, String(n)], { timeout: TIMEOUT });
  }

  // The age of the oldest due job, when the service tells it.
  const listed = (await ok('GET', '/v1/types')).types.find((t) => t.type === type);
  if ('oldestDueAt' in listed) {
    const oldest = ui.page.locator(`#types tr[data-type="${type}"] td[data-oldest]`);
    assert.equal(await oldest.getAttribute('data-oldest'), listed.oldestDueAt);
    assert.match(await oldest.textContent(), / ago$|^now$/);
  }

  // Live: the page polls the counts; created and finished jobs show without a reload.
  await ok('POST', `/v1/jobs/${type}`, {});
  await ok('POST', `/v1/jobs/${type}`, {});
  await cell(ui.page, type, 'pending').filter({ hasText: /^4$/ }).waitFor();
  await runOne(type, 'succeeded');
  await cell(ui.page, type, 'succeeded').filter({ hasText: /^1$/ }).waitFor();
  await cell(ui.page, type, 'pending').filter({ hasText: /^3$/ }).waitFor();
  // The finish was seen between two polls: the type's last minute counts it, once, however few
  // seconds the page has watched (not scaled up to a minute from them).
  await ui.page.waitForFunction((t) => {
    const rate = document.querySelector(`#types tr[data-type="${t}"] td[data-rate]`)?.textContent;
    return rate !== undefined && rate !== '—' && Number(rate) > 0;
  }, type, { timeout: TIMEOUT });
  assert.equal(await ui.page.locator(`#types tr[data-type="${type}"] td[data-rate]`).textContent(), '1');
  assert.ok(await ui.page.locator(`#types tr[data-type="${type}"] svg rect.bar`).count() > 0, 'the last hour has a bar');

  // Each count says what it counts to a screen reader, not the number alone.
  assert.equal(await cell(ui.page, type, 'succeeded').getByRole('link').getAttribute('aria-label'), `1 succeeded job of ${type}`);
  assert.equal(await ui.page.getByRole('link', { name: `1 succeeded job of ${type}` }).count(), 1);

  // Counts lead to the listing they count.
  await cell(ui.page, type, 'failed').getByRole('link').click();
  await ui.page.locator('#job-list tbody tr').first().waitFor();
  assert.match(ui.page.url(), /#\/jobs\?.*result=failed.*order=recent/);
  assert.equal(await ui.page.locator('#job-list tbody tr').count(), 1);
  ui.check();
  await ui.close();
});

test('while the service cannot be read, the overview keeps its last counts, greyed and dated, and claims no throughput', async () => {
  const type = uniqueType('stale');
  await ok('POST', `/v1/jobs/${type}`, {});
  const ui = await openPage(browser);
  await ui.goto('#/');
  await ui.page.locator(`#types tr[data-type="${type}"]`).waitFor();
  await ui.page.waitForFunction(() => document.querySelector('[data-total-rate]')?.textContent !== '—');

  // The counts' poll answered as a service that is away would be (a proxy's 503).
  await ui.page.route('**/v1/types', (route) => route.fulfill({ status: 503, contentType: 'application/problem+json',
    body: JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'upstream away' }) }));
  await ui.page.locator('#stale').waitFor();
  assert.match(await ui.page.locator('#stale').textContent(), /the last the service answered/);
  assert.equal(await ui.page.locator(`#types tr[data-type="${type}"] [data-count="pending"]`).textContent(), '1', 'the last counts stay');
  assert.equal(await ui.page.locator('table#types.stale').count(), 1);
  assert.equal(await ui.page.locator('[data-total-rate]').textContent(), '—');

  await ui.page.unroute('**/v1/types');
  await ui.page.locator('#stale').waitFor({ state: 'detached' });
  ui.check();
  await ui.close();
});
