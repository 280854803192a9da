// Who the dashboard talks as, when the service's answers change under an open page: it is down
// at first, or it stops accepting the token. The page must follow without a reload.
import { after, before, test } from 'node:test';
import { launch, ok, openPage, uniqueType } from './harness.js';

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
