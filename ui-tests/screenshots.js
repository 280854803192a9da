// Takes the screenshots in docs/ (dashboard-*.png) from a service with a little demo traffic:
//   JOBFOUNDRY_URL=http://127.0.0.1:8080 node screenshots.js    (against a fresh, empty store)
// Not a test; run it again when a page changes the way it looks.
import { mkdir } from 'node:fs/promises';
import { jobPath, launch, ok, runOne } from './tests/harness.js';

const OUT = new URL('../docs/', import.meta.url);

async function demoTraffic() {
  await ok('PUT', '/v1/types/email', { maxAttempts: 1 });
  await ok('PUT', '/v1/types/thumbnail', { activityTimeout: 120 });
  await ok('PUT', '/v1/types/report', {});
  const tenants = ['tenant-7', 'tenant-12', 'acme'];
  await ok('POST', '/v1/jobs', { jobs: Array.from({ length: 40 }, (_, i) => ({
    type: 'email', group: tenants[i % 3], data: { to: `user${i}@example.org`, template: 'welcome' },
  })) });
  await ok('POST', '/v1/jobs', { jobs: Array.from({ length: 12 }, (_, i) => ({
    type: 'thumbnail', data: { image: `s3://photos/${1000 + i}.jpg`, sizes: [64, 256, 1024] }, priority: i % 4 ? 'low' : 'high',
  })) });
  await ok('PUT', jobPath('report', 'nightly-sales'), { repeat: 'SCHEDULED, +1 DAY', scheduledAt: '2030-01-01T04:00:00Z', data: { region: 'eu' } });
  await ok('POST', '/v1/types/thumbnail/pause');
  for (let i = 0; i < 9; i++) await runOne('email', 'succeeded');
  await runOne('email', 'failed', 'smtp 451 4.7.1 try again later');
  await runOne('email', 'failed', 'smtp 550 5.1.1 mailbox unavailable');
  await ok('POST', '/v1/accept', { types: ['email'], max: 2, worker: 'mailer-1' });
}

async function main() {
  await demoTraffic();
  await mkdir(OUT, { recursive: true });
  const browser = await launch();
  const page = await browser.newPage({ viewport: { width: 1100, height: 640 } });
  const shoot = async (hash, ready, name, finish) => {
    await page.goto(`${process.env.JOBFOUNDRY_URL}/ui/${hash}`);
    await page.locator(ready).first().waitFor();
    if (finish) await finish();
    await page.screenshot({ path: new URL(name, OUT).pathname, fullPage: true });
  };
  // Let the overview see some finishes between its polls, so that its throughput is not empty.
  await shoot('#/', '#types', 'dashboard-overview.png', async () => {
    await page.locator('#types td[data-rate]').first().waitFor();
    for (let i = 0; i < 6; i++) { await runOne('email', 'succeeded'); await page.waitForTimeout(1500); }
    await page.waitForFunction(() => document.querySelector('[data-total-rate]')?.textContent !== '—');
  });
  await shoot('#/type/email', '#failures tbody tr', 'dashboard-type.png');
  await shoot('#/jobs?type=email&state=pending&limit=20', '#job-list', 'dashboard-jobs.png');
  const [failed] = (await ok('GET', '/v1/jobs/email?state=finished&result=failed&limit=1')).jobs;
  await shoot(`#/job/email/${encodeURIComponent(failed.id)}`, '#live[data-status="live"]', 'dashboard-job.png');
  await page.setViewportSize({ width: 390, height: 760 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot('#/', '#types', 'dashboard-phone-dark.png');
  await browser.close();
}

await main();
