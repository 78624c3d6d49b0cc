// Security of the session webview in the real VS Code (issue 8): agent markdown carrying
// <script>, inline handlers, javascript: links and remote images runs nothing and loads nothing;
// and, independently of the markdown sanitizer, the webview's CSP itself blocks an inline script
// and a remote image inserted into the DOM. A local HTTP server counts any image fetch and the
// page's requests are watched.
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sendPrompt, scriptedAgentSettings } from '../harness/codeServer.mjs';

const hits = [];
const server = createServer((req, res) => {
  hits.push(req.url);
  res.writeHead(200, { 'Content-Type': 'image/png' });
  res.end();
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
server.unref();
const PORT = server.address().port;
const remote = (name) => `http://127.0.0.1:${PORT}/${name}`;

const INJECTION = [
  'Injected content follows.',
  '',
  '<script>window.__pwned = "script"</script>',
  '<img src="x" onerror="window.__pwned = \'onerror\'">',
  `<img src="${remote('html-img.png')}">`,
  `![remote](${remote('md-img.png')})`,
  `<iframe src="${remote('frame')}"></iframe>`,
  '<svg onload="window.__pwned = \'svg\'"></svg>',
  '<a href="javascript:window.__pwned=\'link\'" id="jslink">click me</a> [md link](javascript:window.__pwned=\'mdlink\')',
  `<div style="background:url(${remote('css-bg.png')})">styled</div>`,
  '',
  'END-OF-INJECTION',
].join('\n');

const dir = mkdtempSync(join(tmpdir(), 'tandem-e2e-security-'));
const SCRIPT = join(dir, 'security.json');
writeFileSync(
  SCRIPT,
  JSON.stringify({
    name: 'injector',
    prompts: [{ match: 'inject', steps: [{ stream: INJECTION, chunk: 40 }] }],
  }),
);

const pwned = (view) => view.locator('body').evaluate(() => window.__pwned ?? null);

export default {
  userSettings: scriptedAgentSettings(SCRIPT, { name: 'Injector' }),
  tests: [
    {
      name: 'agent markdown with <script>, handlers, javascript: links and remote images runs and loads nothing',
      timeoutMs: 60_000,
      async run({ page, view, openTandemView, screenshot, log }) {
        const requests = [];
        page.context().on('request', (r) => {
          if (r.url().includes(`:${PORT}`)) requests.push(r.url());
        });
        await openTandemView();
        await sendPrompt(view, 'inject');
        const msg = view.locator('[data-testid="message-agent"]', { hasText: 'END-OF-INJECTION' });
        await msg.waitFor({ timeout: 20_000 });
        await page.waitForTimeout(1500);
        const dom = await msg.evaluate((el) => ({
          scripts: el.querySelectorAll('script').length,
          handlers: [...el.querySelectorAll('*')].filter((n) => [...n.attributes].some((a) => /^on/i.test(a.name)))
            .length,
          iframes: el.querySelectorAll('iframe').length,
          remoteImgs: [...el.querySelectorAll('img')].filter((i) => /^https?:/i.test(i.getAttribute('src') ?? ''))
            .length,
          jsLinks: [...el.querySelectorAll('a')].filter((a) => /^\s*javascript:/i.test(a.getAttribute('href') ?? ''))
            .length,
        }));
        log(`injected message DOM: ${JSON.stringify(dom)}`);
        for (const [k, v] of Object.entries(dom)) if (v !== 0) throw new Error(`${k} in the rendered message: ${v}`);
        // Clicking what was a javascript: link does nothing either.
        const link = msg.locator('a', { hasText: 'click me' });
        if (await link.count())
          await link
            .first()
            .click({ timeout: 2000 })
            .catch(() => {});
        await page.waitForTimeout(300);
        const flag = await pwned(view);
        if (flag !== null) throw new Error(`injected code ran: window.__pwned = ${flag}`);
        if (hits.length || requests.length)
          throw new Error(`remote loads: server ${JSON.stringify(hits)}, page ${JSON.stringify(requests)}`);
        log(`screenshot: ${await screenshot('e2e-security-injection')}`);
      },
    },
    {
      name: 'the webview CSP itself blocks an inline script and a remote image put into the DOM',
      timeoutMs: 30_000,
      async run({ page, view, openTandemView }) {
        await openTandemView();
        await view.locator('[data-testid="composer-input"]').waitFor({ timeout: 30_000 });
        const csp = await view
          .locator('head')
          .evaluate(
            () => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '',
          );
        if (!csp) throw new Error('no CSP meta in the webview document');
        if (/unsafe-inline|unsafe-eval/.test(csp)) throw new Error(`weak CSP: ${csp}`);
        if (!/script-src 'nonce-[^']+'/.test(csp)) throw new Error(`no script nonce: ${csp}`);
        const before = hits.length;
        await view.locator('body').evaluate((body, url) => {
          const s = document.createElement('script');
          s.textContent = 'window.__pwned = "inline"';
          body.append(s);
          const img = document.createElement('img');
          img.src = url;
          body.append(img);
          const d = document.createElement('div');
          d.setAttribute('onclick', 'window.__pwned = "handler"');
          body.append(d);
          d.click();
          // eval / new Function from a page event (not from the test's own evaluation, which
          // DevTools may exempt): a listener added here runs as page code when the event fires.
          window.addEventListener('tandem-probe', () => {
            try {
              eval('window.__pwned = "eval"');
            } catch (e) {
              window.__evalBlocked = String(e);
            }
            try {
              new Function('window.__pwned = "function"')();
            } catch (e) {
              window.__fnBlocked = String(e);
            }
          });
        }, remote('direct.png'));
        await view.locator('body').evaluate(() => {
          setTimeout(() => window.dispatchEvent(new Event('tandem-probe')), 0);
        });
        await page.waitForTimeout(1000);
        const flag = await pwned(view);
        const blocked = await view
          .locator('body')
          .evaluate(() => [window.__evalBlocked ?? null, window.__fnBlocked ?? null]);
        if (flag !== null)
          throw new Error(`CSP let code run: window.__pwned = ${flag} (eval: ${blocked[0]}, Function: ${blocked[1]})`);
        if (!blocked[0] || !blocked[1]) throw new Error(`eval / new Function not refused: ${JSON.stringify(blocked)}`);
        if (hits.length !== before)
          throw new Error(`CSP let a remote image load: ${JSON.stringify(hits.slice(before))}`);
      },
    },
  ],
};
