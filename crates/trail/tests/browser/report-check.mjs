// Opens a `trail report` page in headless Chromium (Debian's, driven by playwright-core) and
// prints, as one JSON line, what a person's browser would see: every request the page tried,
// every dialog and error, and what the DOM holds. Usage:
//   PLAYWRIGHT_DIR=…/node_modules/playwright-core node report-check.mjs PAGE.html SHOT.png
// Run by crates/trail/tests/cli/report.rs, which asserts on the JSON.
import { createRequire } from 'node:module';

const require = createRequire(process.env.PLAYWRIGHT_DIR + '/');
const { chromium } = require(process.env.PLAYWRIGHT_DIR);
const [file, shot] = process.argv.slice(2);
const url = 'file://' + file;

// The flags this machine's closed network needs (see the library's machine notes): without the
// background-networking ones, Chromium itself tries hosts at every start.
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
const requests = [];
const dialogs = [];
const errors = [];
page.on('request', (r) => { if (r.url() !== url) requests.push(r.url()); });
page.on('requestfailed', (r) => { if (r.url() !== url) requests.push('failed: ' + r.url()); });
page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
page.on('pageerror', (e) => errors.push(String(e)));
page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text()); });
await page.goto(url, { waitUntil: 'load' });
// Every section open and scrolled through, so that whatever is laid out lazily is laid out
// (and anything it would load, it tries to load here).
await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
await page.waitForTimeout(300);
const dom = await page.evaluate(() => {
  const all = (sel) => [...document.querySelectorAll(sel)];
  return {
    title: document.title,
    sessions: all('details.session').map((d) => d.dataset.session),
    projects: all('section.project').map((s) => s.dataset.project),
    junctions: all('li.k-junction').length,
    blocked: all('li.k-blocked').length,
    approved: all('li.k-approved').length,
    prompts: all('li.k-prompt').length,
    tools_ok: all('li.k-tool.ok').length,
    tools_failed: all('li.k-tool.fail').length,
    fill_points: all('svg.fill circle').length,
    stops: all('tr.stop').map((t) => t.dataset.rule),
    decisions: all('tr.decision').map((t) => t.dataset.decision),
    cite_links: all('a.cite').map((a) => a.getAttribute('href')),
    scripts: all('script').length,
    iframes: all('iframe,object,embed').length,
    handlers: all('*').filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
    javascript_urls: all('[href],[src]')
      .filter((e) => /^\s*javascript:/i.test(e.getAttribute('href') || e.getAttribute('src') || '')).length,
    tiles: Object.fromEntries(all('[data-tile]').map((t) => [t.dataset.tile, t.querySelector('dd').textContent])),
    text: document.body.innerText,
  };
});
await page.screenshot({ path: shot, fullPage: true });
await browser.close();
console.log(JSON.stringify({ requests, dialogs, errors, ...dom }));
