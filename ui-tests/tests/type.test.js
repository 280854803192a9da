import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, confirmAction, jobPath, launch, ok, openPage, runOne, served, uniqueType } from './harness.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('a type page shows its settings, counts and failed jobs with their last errors', async () => {
  const type = uniqueType('type');
  await ok('PUT', `/v1/types/${type}`, { activityTimeout: 45, maxAttempts: 1 });
  await ok('POST', `/v1/jobs/${type}`, {});
  await runOne(type, 'failed', 'disk full on host-3');
  await ok('POST', `/v1/jobs/${type}`, {});

  const ui = await openPage(browser);
  await ui.goto(`#/type/${type}`);
  await ui.page.locator('#failures').waitFor();
  const settings = await ui.page.locator('dl.fields').textContent();
  assert.match(settings, /activityTimeout\s*45/);
  assert.match(settings, /maxAttempts\s*1/);
  // No limit set: both say unlimited, and nothing is at a limit.
  assert.equal(await ui.page.locator('#settings [data-setting="concurrency"] dd').textContent(), 'unlimited for the type · unlimited per group');
  assert.equal(await ui.page.locator('#settings [data-setting="rateLimit"] dd').textContent(), 'unlimited');
  assert.equal(await ui.page.locator('#at-limit').count(), 0);
  assert.equal(await ui.page.locator('dl.counts [data-count="failed"] dd').textContent(), '1');
  assert.equal(await ui.page.locator('dl.counts [data-count="pending"] dd').textContent(), '1');
  assert.match(await ui.page.locator('#failures tbody').textContent(), /disk full on host-3/);
  ui.check();
  await ui.close();
});

test('a type page keeps its counts current without a reload, and Refresh reads the failures again', async () => {
  const type = uniqueType('live-type');
  await ok('PUT', `/v1/types/${type}`, { maxAttempts: 1 });
  await ok('POST', `/v1/jobs/${type}`, {});

  const ui = await openPage(browser);
  await ui.goto(`#/type/${type}`);
  await ui.page.locator('#failures').waitFor();
  assert.equal(await ui.page.locator('dl.counts [data-count="pending"] dd').textContent(), '1');
  assert.match(await ui.page.locator('#counts-read').textContent(), /Counts read \d\d:\d\d:\d\d UTC/);

  // Changed through the API, by someone else: the counts follow on their own.
  await ok('POST', `/v1/jobs/${type}`, {});
  await ok('POST', `/v1/jobs/${type}`, {});
  await runOne(type, 'failed', 'timed out talking to the mail relay');
  await ui.page.locator('dl.counts [data-count="pending"] dd').filter({ hasText: /^2$/ }).waitFor();
  await ui.page.locator('dl.counts [data-count="failed"] dd').filter({ hasText: /^1$/ }).waitFor();
  assert.equal(await ui.page.locator('#failures').getByText('No failed jobs.').count(), 1, 'the failures as the page was opened');

  await ui.page.locator('#refresh').focus();
  await ui.page.keyboard.press('Enter');
  await ui.page.locator('#failures').getByText('timed out talking to the mail relay').waitFor();
  assert.equal(await ui.page.evaluate(() => document.activeElement?.id), 'refresh', 'the keyboard stays on Refresh');
  ui.check();
  await ui.close();
});

test('a type page shows the jobs failing while their attempts remain, which its failed count does not', async () => {
  const type = uniqueType('retrying');
  await ok('PUT', `/v1/types/${type}`, { maxAttempts: 3, backoff: { base: 600 } });
  await ok('PUT', `/v1/jobs/${type}/thumb-1`, {});
  await ok('PUT', `/v1/jobs/${type}/thumb-2`, {});
  await runOne(type, 'failed', 'OutOfMemoryError: Java heap space');

  const ui = await openPage(browser);
  await ui.goto(`#/type/${type}`);
  await ui.page.locator('#retrying').waitFor();
  assert.equal(await ui.page.locator('dl.counts [data-count="failed"] dd').textContent(), '0');
  const rows = ui.page.locator('#retrying tbody tr');
  assert.equal(await rows.count(), 1);
  assert.match(await rows.first().textContent(), /1 of 3.*OutOfMemoryError: Java heap space/);
  ui.check();
  await ui.close();
});

test('a type page shows its latest failures first, wherever they are in id order', async () => {
  const type = uniqueType('failed-late');
  await ok('PUT', `/v1/types/${type}`, { maxAttempts: 1 });
  // More jobs before it in id order than one page of the listing looks at, none of them due.
  for (let batch = 0; batch < 6; batch += 1) {
    await ok('POST', '/v1/jobs', { jobs: Array.from({ length: 1000 }, (_, i) => ({
      type, id: `a-${String(batch * 1000 + i).padStart(5, '0')}`, scheduledAt: '2099-01-01T00:00:00Z' })) });
  }
  // One failure first in id order, then one after all of those jobs, which fails later.
  await ok('PUT', `${jobPath(type, '0-early')}`, {});
  await runOne(type, 'failed', 'connection reset by peer');
  await ok('PUT', `${jobPath(type, 'z-late')}`, {});
  await runOne(type, 'failed', 'quota exceeded in eu-west');

  const ui = await openPage(browser);
  await ui.goto(`#/type/${type}`);
  await ui.page.locator('#failures tbody tr').first().waitFor();
  assert.match(await ui.page.locator('#failures tbody').textContent(), /quota exceeded in eu-west/);
  const rows = await ui.page.locator('#failures tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.job));
  assert.deepEqual(rows, ['z-late', '0-early'], 'the latest failure first, though its id sorts last');
  ui.check();
  await ui.close();
});

test('a type page lists the fairness groups with their counts', async (t) => {
  const type = uniqueType('groups');
  if (!(await served('GET', `/v1/types/${type}/groups`))) {
    t.skip('GET /v1/types/{type}/groups is not served by this build (operating the queue, on main)');
    return;
  }
  await ok('POST', '/v1/jobs', { jobs: [
    { type, group: 'tenant-a' }, { type, group: 'tenant-a' }, { type, group: 'tenant-b' }, { type },
  ] });
  const ui = await openPage(browser);
  await ui.goto(`#/type/${type}`);
  await ui.page.locator('#groups tr[data-group="tenant-a"]').waitFor();
  const pending = (group) => ui.page.locator(`#groups tr[data-group="${group}"] td[data-count="pending"]`).textContent();
  assert.equal(await pending('tenant-a'), '2');
  assert.equal(await pending('tenant-b'), '1');
  assert.equal(await pending(''), '1');
  // A group leads to its jobs.
  await ui.page.locator('#groups tr[data-group="tenant-b"] a').click();
  await ui.page.locator('#job-list tbody tr').first().waitFor();
  assert.equal(await ui.page.locator('#job-list tbody tr').count(), 1);
  ui.check();
  await ui.close();
});

test('pause and resume from the type page', async () => {
  const type = uniqueType('pause');
  await ok('POST', `/v1/jobs/${type}`, {});
  const ui = await openPage(browser);
  await ui.goto(`#/type/${type}`);
  await ui.page.locator('[data-paused="false"]').waitFor();

  await confirmAction(ui.page, 'Pause', 'Pause');
  await ui.page.locator('[data-paused="true"]').waitFor();
  // The page redraws to show the new state (the badge above is drawn by that redraw); the report
  // of what was done, written before it, is still there.
  assert.equal(await ui.page.locator('.outcome').textContent(), `${type} is paused.`);
  assert.equal((await ok('GET', `/v1/types/${type}`)).paused, true);
  // A paused type hands out nothing.
  assert.deepEqual(await ok('POST', '/v1/accept', { types: [type], max: 1 }), null);

  await confirmAction(ui.page, 'Resume', 'Resume');
  await ui.page.locator('[data-paused="false"]').waitFor();
  assert.equal(await ui.page.locator('.outcome').textContent(), `${type} is running.`);
  assert.equal((await ok('GET', `/v1/types/${type}`)).paused, false);
  ui.check();
  await ui.close();
});

test('a type no job uses can be deleted from its page; one with jobs offers no deletion', async () => {
  const type = uniqueType('misspelt');
  await ok('POST', `/v1/types/${type}/pause`);
  const busy = uniqueType('busy');
  await ok('POST', `/v1/jobs/${busy}`, {});
  const ui = await openPage(browser);
  await ui.goto(`#/type/${busy}`);
  await ui.page.locator('[data-paused="false"]').waitFor();
  assert.equal(await ui.page.getByRole('button', { name: 'Delete type' }).count(), 0, 'a type with a job is not offered for deletion');

  await ui.goto(`#/type/${type}`);
  await ui.page.locator('[data-paused="true"]').waitFor();
  await confirmAction(ui.page, 'Delete type', 'Delete');
  await ui.page.getByText(`${type} was deleted.`).waitFor();
  assert.equal(await ui.page.locator('[data-paused]').count(), 0, 'only the report is left');
  assert.equal((await api('GET', `/v1/types/${type}`)).status, 404);
  await ui.page.locator('main').getByRole('link', { name: 'Overview' }).click();
  await ui.page.locator(`a[href="#/type/${busy}"]`).first().waitFor();
  // The overview draws the sampler's last poll at once, which may predate the deletion, and
  // redraws when its fresh poll answers: the type must be gone then (else this times out).
  await ui.page.locator(`a[href="#/type/${type}"]`).waitFor({ state: 'detached' });
  ui.check();
  await ui.close();
});

test('a limited type shows its limits, and says when the type or a group runs as many as they allow', async () => {
  const type = uniqueType('limited');
  await ok('PUT', `/v1/types/${type}`, { concurrency: { max: 2, perGroup: 1 }, rateLimit: { count: 100, seconds: 60, perGroup: true } });
  await ok('POST', '/v1/jobs', { jobs: [{ type, group: 'tenant-a' }, { type, group: 'tenant-a' }, { type, group: 'tenant-b' }] });
  // One of each group may run: tenant-a's second job stays pending, and the type is full at 2.
  const running = await ok('POST', '/v1/accept', { types: [type], max: 3, wait: 5000, worker: 'ui-test' });
  assert.deepEqual(running.map((job) => job.group).sort(), ['tenant-a', 'tenant-b']);
  await ok('POST', `/v1/jobs/${type}`, { group: 'tenant-c' });

  const ui = await openPage(browser);
  await ui.goto(`#/type/${type}`);
  await ui.page.locator('#groups tr[data-group="tenant-c"]').waitFor();
  assert.equal(await ui.page.locator('#settings [data-setting="concurrency"] dd').textContent(), 'at most 2 running for the type · at most 1 per group');
  assert.equal(await ui.page.locator('#settings [data-setting="rateLimit"] dd').textContent(), 'at most 100 starts per 60 s in each group');
  assert.match(await ui.page.locator('#at-limit').textContent(), /At its concurrency limit: 2 running, at most 2/);
  const atLimit = (group) => ui.page.locator(`#groups tr[data-group="${group}"] [data-at-limit]`).count();
  assert.equal(await atLimit('tenant-a'), 1);
  assert.equal(await atLimit('tenant-b'), 1);
  assert.equal(await atLimit('tenant-c'), 0, 'a group running nothing has room');

  // One finishes: the type and tenant-b have room again.
  const done = running.find((job) => job.group === 'tenant-b');
  await ok('POST', `${jobPath(type, done.id)}/finish`, { lease: done.lease, outcome: 'succeeded' });
  await ui.page.reload();
  await ui.page.locator('#groups tr[data-group="tenant-a"]').waitFor();
  assert.equal(await ui.page.locator('#at-limit').count(), 0);
  assert.equal(await atLimit('tenant-a'), 1);
  assert.equal(await ui.page.locator('#groups tr[data-group="tenant-b"]').count() === 0 || await atLimit('tenant-b') === 0, true);
  ui.check();
  await ui.close();
});
