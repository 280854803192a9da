import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, launch, ok, openPage, uniqueType } from './harness.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('recurring jobs with their next runs, and a preview of any expression', async () => {
  const type = uniqueType('repeat');
  await ok('PUT', `/v1/jobs/${type}/nightly`, { repeat: 'SCHEDULED, +1 DAY', scheduledAt: '2030-01-01T04:00:00Z' });
  await ok('PUT', `/v1/jobs/${type}/once`, {});

  const ui = await openPage(browser);
  await ui.goto('#/recurring');
  const row = ui.page.locator('#recurring tr[data-job="nightly"]');
  await row.waitFor();
  assert.equal(await ui.page.locator('#recurring tr[data-job="once"]').count(), 0);
  assert.deepEqual(await row.locator('ol.runs li').allTextContents(),
    ['2030-01-01 04:00:00Z', '2030-01-02 04:00:00Z', '2030-01-03 04:00:00Z', '2030-01-04 04:00:00Z']);

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
