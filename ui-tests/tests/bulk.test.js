import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch, ok, openPage, runOne, served, uniqueType } from './harness.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('bulk retry runs the failed jobs of a type again', async (t) => {
  const type = uniqueType('bulk');
  // Only matched jobs change: a retry of a type without failed jobs is harmless, so it probes.
  if (!(await served('POST', '/v1/bulk', { action: 'retry', filter: { type, state: 'finished', result: 'failed' } }))) {
    t.skip('POST /v1/bulk is not served by this build (operating the queue, on main)');
    return;
  }
  await ok('PUT', `/v1/types/${type}`, { maxAttempts: 1 });
  await ok('POST', '/v1/jobs', { jobs: [{ type, id: 'a' }, { type, id: 'b' }, { type, id: 'c' }] });
  await runOne(type, 'failed', 'boom');
  await runOne(type, 'failed', 'boom');
  await runOne(type, 'succeeded');

  const ui = await openPage(browser);
  await ui.goto(`#/type/${type}`);
  await ui.page.getByRole('link', { name: 'Retry failed jobs…' }).click();
  await ui.page.locator('#bulk').waitFor();
  assert.equal(await ui.page.locator('#bulk [name=type]').inputValue(), type);
  // The confirmation says what will run again, as the form says it now.
  await ui.page.locator('#bulk [name=limit]').fill('2');
  await ui.page.getByRole('button', { name: 'Retry failed jobs', exact: true }).click();
  assert.equal(await ui.page.locator('#confirm-message').textContent(),
    `Every failed job of type ${type}, in every group, at most 2, runs again as a fresh run.`);
  await ui.page.locator('#confirm-ok').click();
  await ui.page.locator('#bulk-outcome .ok').filter({ hasText: 'Matched 2 failed jobs; 2 run again. More may be left' }).waitFor();
  const counts = (await ok('GET', `/v1/types/${type}`)).counts;
  assert.deepEqual([counts.failed, counts.pending, counts.succeeded], [0, 2, 1]);
  ui.check();
  await ui.close();
});

test('bulk retry asks for a type before it asks for confirmation', async () => {
  const ui = await openPage(browser);
  await ui.goto('#/bulk');
  await ui.page.getByRole('button', { name: 'Retry failed jobs', exact: true }).click();
  assert.equal(await ui.page.locator('dialog#confirm').isVisible(), false);
  assert.equal(await ui.page.locator('#bulk [name=type]').evaluate((input) => input.validity.valueMissing), true);
  ui.check();
  await ui.close();
});
