import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, launch, ok, openPage, runOne, uniqueType } from './harness.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('recurring jobs with their next runs, and a preview of any expression', async () => {
  const type = uniqueType('repeat');
  await ok('PUT', `/v1/jobs/${type}/nightly`, { repeat: 'SCHEDULED, +1 DAY', scheduledAt: '2030-01-01T04:00:00Z' });
  await ok('PUT', `/v1/jobs/${type}/once`, {});
  await ok('PUT', `/v1/jobs/${type}/cancelled`, { repeat: 'FINISHED, +1 HOUR', scheduledAt: '2030-01-01T00:00:00Z' });
  await ok('POST', `/v1/jobs/${type}/cancelled/cancel`, {});
  const retrying = uniqueType('retrying');
  await ok('PUT', `/v1/jobs/${retrying}/retried`, { repeat: 'SCHEDULED, +1 DAY' });
  await runOne(retrying, 'failed', 'upstream timed out');
  // 09:00 in Berlin is 08:00 UTC in winter; its type paused.
  const zoned = uniqueType('zoned');
  await ok('PUT', `/v1/jobs/${zoned}/berlin`, { repeat: 'CRON TZ=Europe/Berlin 0 9 * * *', scheduledAt: '2030-01-07T08:00:00Z' });
  await ok('POST', `/v1/types/${zoned}/pause`);

  const ui = await openPage(browser);
  await ui.goto('#/recurring');
  const row = ui.page.locator('#recurring tr[data-job="nightly"]');
  await row.waitFor();
  assert.equal(await ui.page.locator('#recurring tr[data-job="once"]').count(), 0);
  assert.deepEqual(await row.locator('ol.runs li').allTextContents(),
    ['2030-01-01 04:00:00Z', '2030-01-02 04:00:00Z', '2030-01-03 04:00:00Z', '2030-01-04 04:00:00Z']);
  // A cancelled series has ended: it is not said to run again.
  const ended = ui.page.locator('#recurring tr[data-job="cancelled"] [data-ended]');
  assert.match(await ended.textContent(), /^ended \(cancelled\)/);
  // A run being retried: its retry's time, and no runs guessed from it (a SCHEDULED series counts from the run's time).
  const retried = ui.page.locator('#recurring tr[data-job="retried"] [data-retry]');
  assert.match(await retried.textContent(), /^attempt 2 at /);
  assert.equal(await ui.page.locator('#recurring tr[data-job="retried"] ol.runs').count(), 0);
  // How the last run went, from the job: the retried run's error.
  assert.equal(await ui.page.locator('#recurring tr[data-job="retried"] [data-last-error]').textContent(), 'upstream timed out');
  // A zoned cron's runs also on its zone's clock; its type linked, and said to be paused.
  const berlin = ui.page.locator('#recurring tr[data-job="berlin"]');
  assert.equal(await berlin.locator('ol.runs li').first().textContent(), '2030-01-07 08:00:00Z (Mon 09:00 Europe/Berlin)');
  assert.equal(await berlin.locator(`a[href="#/type/${zoned}"]`).count(), 1);
  assert.equal(await berlin.locator('[data-paused]').count(), 1);

  const form = ui.page.locator('#preview');
  await form.locator('[name=repeat]').fill('scheduled, +15 minutes');
  await form.locator('[name=count]').fill('3');
  await form.getByRole('button', { name: 'Preview' }).click();
  await ui.page.locator('#next-runs li').nth(2).waitFor();
  const expected = await ok('POST', '/v1/repeat/preview', { repeat: 'scheduled, +15 minutes', count: 3 });
  assert.equal(await ui.page.locator('#normalized').textContent(), expected.normalized);
  assert.equal(await ui.page.locator('#next-runs li').count(), 3);

  // An invalid expression: the service's detail, which names the offending part.
  await form.locator('[name=repeat]').fill('SCHEDULED, +1 FORTNIGHT');
  await form.getByRole('button', { name: 'Preview' }).click();
  const refusal = await api('POST', '/v1/repeat/preview', { repeat: 'SCHEDULED, +1 FORTNIGHT' });
  assert.equal(refusal.status, 400);
  await ui.page.locator('#preview-result .problem').filter({ hasText: refusal.body.detail }).waitFor();
  ui.check();
  await ui.close();
});
