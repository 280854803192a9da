import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch, ok, openPage, uniqueType } from './harness.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('at phone width no page is wider than the screen', async () => {
  const type = uniqueType('phone');
  await ok('PUT', `/v1/types/${type}`, { maxAttempts: 1 });
  const job = await ok('POST', `/v1/jobs/${type}`, { data: { note: 'a rather long value '.repeat(20) } });
  const ui = await openPage(browser, { viewport: { width: 390, height: 800 } });
  for (const [hash, ready] of [['#/', '#types'], [`#/type/${type}`, '#failures'], [`#/jobs?type=${type}`, '#job-list'],
    [`#/job/${type}/${job.id}`, '#data'], ['#/recurring', '#preview']]) {
    await ui.goto(hash);
    await ui.page.locator(ready).waitFor();
    // Wide tables scroll inside their own box; the page itself does not scroll sideways.
    const width = await ui.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `${hash} is ${width}px wide`);
  }
  ui.check();
  await ui.close();
});

test('dark mode follows the system setting', async () => {
  const ui = await openPage(browser, { colorScheme: 'dark' });
  await ui.goto('#/');
  await ui.page.locator('h1').waitFor();
  const [r, g, b] = (await ui.page.evaluate(() => getComputedStyle(document.body).backgroundColor)).match(/\d+/g).map(Number);
  assert.ok(r + g + b < 150, `a dark background, got rgb(${r}, ${g}, ${b})`);
  ui.check();
  await ui.close();
});

test('actions are reachable and usable with the keyboard alone', async () => {
  const type = uniqueType('keys');
  const job = await ok('POST', `/v1/jobs/${type}`, {});
  const ui = await openPage(browser);
  await ui.goto(`#/job/${type}/${job.id}`);
  await ui.page.locator('#live[data-status="live"]').waitFor();
  let focused = '';
  for (let i = 0; i < 40 && focused !== 'Cancel'; i++) {
    await ui.page.keyboard.press('Tab');
    focused = await ui.page.evaluate(() => document.activeElement?.textContent ?? '');
  }
  assert.equal(focused, 'Cancel', 'Tab reaches the Cancel button');
  assert.equal(await ui.page.title(), `Job ${job.id} · Jobfoundry`, 'the tab names the page');
  await ui.page.keyboard.press('Enter');
  await ui.page.locator('dialog#confirm').waitFor({ state: 'visible' });
  await ui.page.keyboard.press('Escape'); // Escape declines
  await ui.page.locator('dialog#confirm').waitFor({ state: 'hidden' });
  assert.equal((await ok('GET', `/v1/jobs/${type}/${job.id}`)).state, 'pending');

  await ui.page.keyboard.press('Enter'); // focus went back to Cancel
  await ui.page.locator('dialog#confirm').waitFor({ state: 'visible' });
  await ui.page.locator('#confirm-ok').focus();
  await ui.page.keyboard.press('Enter');
  await ui.page.locator('#fields [data-field="result"] dd').filter({ hasText: /^cancelled$/ }).waitFor();
  // Cancel is gone with the job's state: the keyboard goes on from the buttons that took its place.
  await ui.page.waitForFunction(() => document.activeElement?.closest('#actions') !== null);
  assert.equal(await ui.page.evaluate(() => document.activeElement?.textContent), 'Retry');
  ui.check();
  await ui.close();
});

test('the overview keeps the keyboard focus where it was when it redraws', async () => {
  const type = uniqueType('focus');
  await ok('POST', `/v1/jobs/${type}`, {});
  const ui = await openPage(browser);
  await ui.goto('#/');
  const link = ui.page.locator(`#types tr[data-type="${type}"] th a`);
  await link.focus();
  const before = await ui.page.locator('p.small').textContent();
  // The next poll redraws the table (its "Updated …" line changes with it).
  await ui.page.waitForFunction((text) => document.querySelector('p.small')?.textContent !== text, before);
  assert.equal(await ui.page.evaluate(() => document.activeElement?.getAttribute('href')), `#/type/${type}`);
  ui.check();
  await ui.close();
});
