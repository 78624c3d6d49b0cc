// A real VS Code for tests, without downloading VS Code: code-server (VS Code server + web
// workbench, real Node extension host) on Node 24, driven by Debian's Chromium through
// playwright-core. Facts behind every flag: VSCODE-TESTING.md in the team's shared folder.
//
//   const server = await startCodeServer({ workspace, extensionDevelopmentPath, userSettings, env });
//   const { page, close } = await openWorkbench(server.url);      // url opens `workspace`
//   await openTandemView(page);
//   const view = tandemWebview(page);                              // FrameLocator inside the webview
//   await view.locator('[data-testid="composer-input"]').fill('hi');
//   await screenshot(page, 'name');                                // → test-results/name.png
//   await close(); await server.stop();
import { spawn, spawnSync } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  readdirSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  realpathSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { format } from 'node:util';
import { ensureInstalled, CHROMIUM } from './install.mjs';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const RESULTS_DIR = join(REPO, 'test-results');
export const TANDEM_ID = 'tandem-dev.tandem';

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.unref();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Env of this process minus whatever would make code-server think it runs inside another VS Code. */
function cleanEnv() {
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE' || k.startsWith('npm_')) delete env[k];
  }
  return env;
}

/** `vscode-remote://remote/abs/path`: how the web workbench names a path on the server. */
export const remoteUri = (absPath) => `vscode-remote://remote${absPath.split('/').map(encodeURIComponent).join('/')}`;

/**
 * Workbench URL for `folder`, optionally with the test-electron style payload
 * (needs the server started with enable-smoke-test-driver, which startCodeServer does).
 */
export function workbenchUrl(
  base,
  { folder, extensionDevelopmentPath, extensionTestsPath, extensionEnvironment } = {},
) {
  const u = new URL(base);
  if (folder) u.searchParams.set('folder', folder);
  const payload = [];
  if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remoteUri(extensionDevelopmentPath)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remoteUri(extensionTestsPath)]);
  if (extensionEnvironment) payload.push(['extensionEnvironment', JSON.stringify(extensionEnvironment)]);
  if (payload.length) u.searchParams.set('payload', JSON.stringify(payload));
  return u.toString();
}

/**
 * Starts code-server on a free 127.0.0.1 port in its own process group, with a fresh
 * user-data-dir / extensions-dir / TMPDIR / XDG_RUNTIME_DIR inside a new run dir.
 * @param {object} o
 * @param {string} o.workspace folder to open (absolute)
 * @param {string} [o.extensionDevelopmentPath] load this extension in development mode (via the URL payload)
 * @param {string} [o.extensionTestsPath] run this tests module (test-electron contract)
 * @param {object} [o.extensionEnvironment] env for the extension host (payload)
 * @param {object} [o.userSettings] merged into User/settings.json (machine-scoped keys of the
 *   extension(s) also into Machine/settings.json: the remote settings, see below)
 * @param {object} [o.env] extra env for code-server (inherited by the extension host)
 * @param {number} [o.port] fixed port instead of a free one
 * @param {string} [o.runDir] use this dir (kept) instead of a fresh temp dir (removed on stop)
 * @param {(line: string) => void} [o.onOutput] code-server stdout/stderr lines (default: to run-dir log only)
 * @param {string[]} [o.linkExtensions] extension folders installed as symlinks in the extensions dir
 *   (a normal, non-development install: plain URL, survives reloads; used by `npm start`)
 * @param {string} [o.installVsix] a packaged extension (.vsix) installed the way users install one
 *   (`--install-extension` into the extensions dir) before the server starts
 * @param {string[]} [o.extraArgs]
 * @returns {Promise<{url: string, baseUrl: string, port: number, runDir: string, pid: number, logFile: string,
 *   urlFor: Function, stop: () => Promise<void>, exited: Promise<{code, signal}>, tail: () => string}>}
 *   url: workbench URL (folder + payload); urlFor(extra): same with overrides; tail(): last output lines
 */
export async function startCodeServer(o) {
  const paths = await ensureInstalled({ quiet: true });
  const workspace = resolve(o.workspace);
  const keep = !!o.runDir;
  const runDir = o.runDir ? resolve(o.runDir) : mkdtempSync(join(tmpdir(), 'tandem-cs-'));
  const dirs = {
    userData: join(runDir, 'user-data'),
    extensions: join(runDir, 'extensions'),
    tmp: join(runDir, 'tmp'),
    xdg: join(runDir, 'xdg-runtime'),
  };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true, mode: 0o700 });
  mkdirSync(join(dirs.userData, 'User'), { recursive: true });
  for (const extDir of o.linkExtensions ?? []) {
    const pkg = JSON.parse(readFileSync(join(extDir, 'package.json'), 'utf8'));
    const link = join(dirs.extensions, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
    rmSync(link, { force: true, recursive: true });
    symlinkSync(resolve(extDir), link, 'dir');
  }
  let vsixDir;
  if (o.installVsix) vsixDir = installVsix(paths, o.installVsix, dirs);
  const settings = {
    'chat.disableAIFeatures': true,
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'security.workspace.trust.enabled': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    ...o.userSettings,
  };
  writeFileSync(join(dirs.userData, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  // code-server is a remote window: VS Code reads machine-scoped settings only from the remote
  // ("Machine") settings there. From User/settings.json it takes them only until it reparses that
  // file with the extension's schema, which may happen before or after the extension reads them
  // (a race: the configured agent, or the default one). So they go to Machine/settings.json too.
  const machineKeys = machineScopedKeys([o.extensionDevelopmentPath, vsixDir, ...(o.linkExtensions ?? [])]);
  const machine = Object.fromEntries(Object.entries(settings).filter(([k]) => machineKeys.has(k)));
  if (Object.keys(machine).length) {
    mkdirSync(join(dirs.userData, 'Machine'), { recursive: true });
    writeFileSync(join(dirs.userData, 'Machine', 'settings.json'), JSON.stringify(machine, null, 2));
  }
  const config = join(runDir, 'config.yaml');
  writeFileSync(config, '');
  const port = o.port ?? (await freePort());
  const args = [
    paths.codeServerEntry,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--config',
    config,
    '--user-data-dir',
    dirs.userData,
    '--extensions-dir',
    dirs.extensions,
    '--vscode-option',
    'enable-smoke-test-driver',
    ...(o.extraArgs ?? []),
    workspace,
  ];
  const env = {
    ...cleanEnv(),
    ...o.env,
    EXTENSIONS_GALLERY: '{}',
    TMPDIR: dirs.tmp,
    XDG_RUNTIME_DIR: dirs.xdg,
  };
  const logFile = join(runDir, 'code-server.log');
  const log = createWriteStream(logFile);
  const child = spawn(paths.node24, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const tail = [];
  let exited = null;
  const exitPromise = new Promise((r) =>
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      r(exited);
    }),
  );
  const onChunk = (buf) => {
    log.write(buf);
    for (const line of buf.toString().split('\n')) {
      if (!line) continue;
      tail.push(line);
      if (tail.length > 40) tail.shift();
      o.onOutput?.(line);
    }
  };
  child.stdout.on('data', onChunk);
  child.stderr.on('data', onChunk);
  // If this process dies without calling stop(), do not leave the group behind.
  const killOnExit = () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  };
  process.on('exit', killOnExit);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', killOnExit);
    if (!exited) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      const t = await Promise.race([exitPromise, sleep(5000).then(() => 'timeout')]);
      // The group may still hold children (extension host, ptys) even after the main process exits.
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
      if (t === 'timeout') await exitPromise;
    } else {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    await new Promise((r) => log.end(r));
    if (!keep) rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
  };

  // Ready when /healthz answers.
  const baseUrl = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + (o.startTimeoutMs ?? 60_000);
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`code-server exited early (${JSON.stringify(exited)}):\n${tail.join('\n')}`);
    }
    try {
      const r = await fetch(`${baseUrl}healthz`, { signal: AbortSignal.timeout(1000) });
      if (r.ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `code-server did not answer on ${baseUrl} within ${(o.startTimeoutMs ?? 60_000) / 1000} s:\n${tail.join('\n')}`,
      );
    }
    await sleep(150);
  }
  const urlFor = (extra = {}) =>
    workbenchUrl(baseUrl, {
      folder: workspace,
      extensionDevelopmentPath: o.extensionDevelopmentPath && resolve(o.extensionDevelopmentPath),
      extensionTestsPath: o.extensionTestsPath && resolve(o.extensionTestsPath),
      extensionEnvironment: o.extensionEnvironment,
      ...extra,
    });
  return {
    url: urlFor(),
    baseUrl,
    port,
    runDir,
    pid: child.pid,
    logFile,
    urlFor,
    stop,
    exited: exitPromise,
    tail: () => tail.join('\n'),
  };
}

/** Setting keys an extension declares with scope machine or machine-overridable. */
/**
 * `code-server --install-extension <vsix>` (what users run), under Node 24, into the run's own
 * extensions and user-data dirs. Returns the installed extension's folder.
 */
function installVsix(paths, vsix, dirs) {
  if (!existsSync(vsix)) throw new Error(`no VSIX at ${vsix} (npm run package)`);
  const r = spawnSync(
    paths.node24,
    [
      paths.codeServerEntry,
      '--install-extension',
      resolve(vsix),
      '--extensions-dir',
      dirs.extensions,
      '--user-data-dir',
      dirs.userData,
    ],
    { env: { ...cleanEnv(), EXTENSIONS_GALLERY: '{}', TMPDIR: dirs.tmp }, encoding: 'utf8' },
  );
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
  if (r.status !== 0) throw new Error(`--install-extension ${vsix} failed (exit ${r.status}): ${out.slice(-2000)}`);
  const installed = readdirSync(dirs.extensions).find((n) => n.startsWith(`${TANDEM_ID}-`));
  if (!installed)
    throw new Error(`--install-extension said "${out.slice(-500)}" but ${dirs.extensions} has no ${TANDEM_ID}`);
  return join(dirs.extensions, installed);
}

function machineScopedKeys(extDirs) {
  const keys = new Set();
  for (const dir of extDirs) {
    if (!dir) continue;
    let pkg;
    try {
      pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    const conf = pkg.contributes?.configuration;
    for (const c of Array.isArray(conf) ? conf : conf ? [conf] : []) {
      for (const [k, v] of Object.entries(c.properties ?? {}))
        if (v?.scope === 'machine' || v?.scope === 'machine-overridable') keys.add(k);
    }
  }
  return keys;
}

async function loadPlaywright() {
  // Prefer the repo's own playwright-core (devDependency), else the cached one from install.mjs.
  const req = createRequire(join(REPO, 'package.json'));
  try {
    return req('playwright-core');
  } catch {
    /* fall through */
  }
  const p = await ensureInstalled({ quiet: true });
  return createRequire(join(p.dir, 'package.json'))('playwright-core');
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-features=Translate,MediaRouter,OptimizationHints',
  // Every name but the loopback ones fails to resolve: tests never reach the internet.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
];

/**
 * Opens the workbench at `url` in Debian's Chromium (headless unless HEADED=1 / o.headless=false).
 * @param {string} url
 * @param {object} [o]
 * @param {boolean} [o.headless]
 * @param {{width:number,height:number}} [o.viewport]
 * @param {(page) => Promise<void>} [o.beforeGoto] e.g. page.exposeFunction(...)
 * @param {boolean} [o.waitForWorkbench] wait for `.monaco-workbench` (default true)
 * @returns {Promise<{browser, context, page, close: () => Promise<void>}>}
 */
export async function openWorkbench(url, o = {}) {
  const { chromium } = await loadPlaywright();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: o.headless ?? process.env.HEADED !== '1',
    args: CHROMIUM_ARGS,
  });
  const context = await browser.newContext({ viewport: o.viewport ?? { width: 1400, height: 900 } });
  const page = await context.newPage();
  const close = async () => {
    try {
      await browser.close();
    } catch {
      /* already gone */
    }
  };
  try {
    if (o.beforeGoto) await o.beforeGoto(page);
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    if (o.waitForWorkbench ?? true) await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  } catch (e) {
    await close();
    throw e;
  }
  return { browser, context, page, close };
}

// The workbench's own log lines (same console format as the extension host's): not test output.
const WORKBENCH_NOISE =
  /^(Error: Timed out waiting for authentication provider|Creation of workbench contribution|Resolving connection token|Resolved connection token|Creating a socket|\[reconnection-grace-time\]|Ignoring fetching additional builtin extensions|Updating additional builtin extensions cache|\[Service Worker\]|\[AgentHost|\[AccountPolicyGate\]|Started local extension host|Extension host \(|Loading development extension|\[Extension Host\] )/;

/**
 * Turns page console messages back into extension-host output lines. With a tests payload the
 * extension host's console.* arrives in the page console as ('%c INFO', 'color: …', fmt,
 * ...args) ('%c  ERR', '%c WARN' for error/warn); each line is rebuilt with util.format.
 * Calls onLine(text, {type, fromExtensionHost}) for every console message; fromExtensionHost
 * is a best guess (that format, minus the workbench's own known log lines).
 */
export function onConsoleLines(page, onLine) {
  page.on('console', async (msg) => {
    let args;
    try {
      args = await Promise.all(msg.args().map((a) => a.jsonValue().catch(() => String(a))));
    } catch {
      args = [msg.text()];
    }
    let fromExtensionHost = false;
    if (
      args.length >= 2 &&
      typeof args[0] === 'string' &&
      /^%c\s*(INFO|WARN|ERR|DEBUG|TRACE)\s*$/.test(args[0]) &&
      typeof args[1] === 'string' &&
      args[1].startsWith('color')
    ) {
      args = args.slice(2);
      if (args.length === 0) args = [''];
      fromExtensionHost = true;
    } else if (
      args.length === 0 ||
      args.every((a) => a === undefined || (a && typeof a === 'object' && Object.keys(a).length === 0))
    ) {
      args = [msg.text()];
    }
    let text;
    try {
      text = format(...args);
    } catch {
      text = msg.text();
    }
    if (fromExtensionHost && WORKBENCH_NOISE.test(text)) fromExtensionHost = false;
    onLine(text, { type: msg.type(), fromExtensionHost });
  });
}

/**
 * An e2e file's userSettings: the scripted test agent playing `script` (absolute, or relative to
 * the repository) as the default agent `name`, plus any `extra` settings.
 */
export function scriptedAgentSettings(script, { name = 'Scripted', extra = {} } = {}) {
  return ({ repo, node }) => ({
    'tandem.agents': [
      { name, command: node, args: [join(repo, 'out/test/fixtures/agents/scripted-agent.js'), resolve(repo, script)] },
    ],
    'tandem.defaultAgent': name,
    ...extra,
  });
}

/** The activity-bar entry of a view container (title "Tandem" by default). */
export async function openTandemView(page, { title = 'Tandem', containerId = 'tandem', timeout = 20_000 } = {}) {
  const item = page
    .locator(
      `.part.activitybar .action-item a[aria-label^="${title}"], .part.activitybar .action-item [aria-label^="${title}"]`,
    )
    .first();
  try {
    await item.waitFor({ state: 'visible', timeout: Math.min(timeout, 10_000) });
    // Clicking an already open container toggles it closed: only click when not checked.
    const checked =
      (await item.evaluate(
        (el) =>
          el.closest('.action-item')?.classList.contains('checked') ||
          el.getAttribute('aria-checked') === 'true' ||
          el.getAttribute('aria-selected') === 'true',
      )) && (await page.locator('.part.sidebar').isVisible());
    if (!checked) await item.click();
  } catch {
    await runCommand(page, `View: Show ${title}`);
  }
  const frame = page.locator(webviewViewFrame()).first();
  try {
    await frame.waitFor({ state: 'visible', timeout: Math.min(timeout, 5_000) });
  } catch {
    // A window still restoring its layout can open the container just before our click lands,
    // which then toggles it closed; the command only ever shows it.
    await runCommand(page, `View: Show ${title}`);
    await frame.waitFor({ state: 'visible', timeout });
  }
  void containerId;
}

/** Types a prompt into Tandem's composer (once it is enabled) and sends it with Enter. */
export async function sendPrompt(view, text, { timeout = 30_000 } = {}) {
  const input = view.locator('[data-testid="composer-input"]:not([disabled])');
  await input.waitFor({ timeout });
  // While the agent starts or a session opens, the composer takes text but Send waits for the
  // session (Enter then sends nothing): a test sends once it is there.
  await view.locator('[data-testid="starting"]').waitFor({ state: 'detached', timeout });
  await input.click();
  await input.fill(text);
  await input.press('Enter');
}

/** Waits for an agent message containing `text` (the last one, when several do). */
export function agentReply(view, text, { timeout = 20_000 } = {}) {
  return view.locator('[data-testid="message-agent"]', { hasText: text }).last().waitFor({ timeout });
}

/**
 * Waits until the view's focused element is the tree row `data-id` (keyboard navigation moves the
 * focus in the render after the key, which a loaded machine delays). Reads the frame's active
 * element, not `:focus`, which matches nothing while a workbench part holds the window's focus.
 * Fails saying where the focus is instead.
 */
export async function focusedRow(view, id, { timeout = 3000 } = {}) {
  const active = () =>
    view.locator('body').evaluate((body) => {
      const doc = body.ownerDocument;
      const a = doc.activeElement;
      return { id: a?.getAttribute('data-id'), where: `${a?.tagName}.${a?.className} hasFocus=${doc.hasFocus()}` };
    });
  let now = await active();
  for (const start = Date.now(); now.id !== id && Date.now() - start < timeout; now = await active())
    await new Promise((r) => setTimeout(r, 50));
  if (now.id !== id) throw new Error(`the focus should be on ${id}, is on ${now.id ?? now.where}`);
}

/** Waits until the turn is over: the composer is enabled and the agent is idle. */
export async function agentIdle(view, { timeout = 20_000 } = {}) {
  await view.locator('[data-testid="composer-input"]:not([disabled])').waitFor({ timeout });
  await view.locator('[data-testid="agent-state"]', { hasText: 'idle' }).waitFor({ timeout });
}

/**
 * CSS (Playwright) selector of the outer iframe of an extension's sidebar webview view.
 * VS Code puts `purpose=webviewView` in that iframe's src only the first time: once the view
 * was hidden (side bar closed) and is shown again, the workbench builds a new iframe from
 * webview options the extension's resolve replaced (OverlayWebview's options setter), and the
 * src has no `purpose` at all. So: a visible webview iframe of the extension that is either a
 * webview view or has no purpose (not a custom editor / notebook renderer / chat output).
 * `:visible` skips a retained but hidden one.
 */
export function webviewViewFrame(extensionId = TANDEM_ID) {
  const base = `iframe.webview.ready[src*="extensionId=${extensionId}"]`;
  return `${base}[src*="purpose=webviewView"]:visible, ${base}:not([src*="purpose="]):visible`;
}

/**
 * The notification whose text contains `text`, in the notification center (opened if needed).
 * Under `enable-smoke-test-driver` (which the payload needs) VS Code never shows notification
 * toasts (NotificationsToasts.addToast returns early), so a notification is only ever in the center.
 */
export async function notification(page, text, { timeout = 10_000 } = {}) {
  const item = page.locator('.notifications-center .notification-list-item', { hasText: text }).first();
  if (!(await page.locator('.notifications-center.visible').isVisible())) {
    await runCommand(page, 'Notifications: Show Notifications');
    await page
      .locator('.quick-input-widget')
      .waitFor({ state: 'hidden', timeout })
      .catch(() => {});
  }
  await item.waitFor({ timeout });
  return item;
}

/**
 * Runs a command from the command palette by its label (e.g. "View: Show Tandem"): the row of
 * exactly that command, never whatever fuzzy match comes first (a command hidden by its `when`
 * clause must fail here, not run a neighbour). The palette is asked twice, a second apart: a
 * context key the extension just set may reach the workbench a moment after the view's update.
 */
export async function runCommand(page, label) {
  const input = page.locator('.quick-input-widget input');
  // A row's aria-label is the command's label, plus ", <keybinding>" when it has one.
  const row = page
    .locator(
      `.quick-input-list .monaco-list-row[aria-label="${label}"], .quick-input-list .monaco-list-row[aria-label^="${label},"]`,
    )
    .first();
  for (let attempt = 1; ; attempt++) {
    await page
      .locator('.monaco-workbench')
      .click({ position: { x: 5, y: 5 }, force: true })
      .catch(() => {});
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(`>${label}`);
    try {
      await row.waitFor({ timeout: attempt === 1 ? 5_000 : 10_000 });
      await row.click();
      return;
    } catch (e) {
      const offered = await page
        .locator('.quick-input-list .monaco-list-row')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label')))
        .catch(() => []);
      await page.keyboard.press('Escape');
      if (attempt >= 2)
        throw new Error(
          `runCommand: "${label}" is not in the command palette (offered: ${
            offered
              .slice(0, 5)
              .map((x) => JSON.stringify(x))
              .join(', ') || 'nothing'
          })`,
          { cause: e },
        );
      await sleep(1000);
    }
  }
}

/**
 * Answers the open quick pick or input box: types `text` and presses Enter; with `pick`, first
 * waits for a row with that text (so Enter takes it, not the row before the filter caught up).
 */
export async function answerQuickInput(page, text, { pick } = {}) {
  const input = page.locator('.quick-input-widget input').first();
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(text);
  if (pick)
    await page.locator('.quick-input-list .monaco-list-row', { hasText: pick }).first().waitFor({ timeout: 10_000 });
  await input.press('Enter');
}

/** "Tandem: Select Agent", then `name` in its list; resolves once the view names that agent. */
export async function selectAgent(page, view, name, { timeout = 90_000 } = {}) {
  await runCommand(page, 'Tandem: Select Agent');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().click({ timeout: 10_000 });
  await view.locator('[data-testid="agent-name"]', { hasText: name }).waitFor({ timeout });
}

/** FrameLocator of the Tandem sidebar webview's content (outer webview iframe → #active-frame). */
export function tandemWebview(page, extensionId = TANDEM_ID) {
  return page.frameLocator(webviewViewFrame(extensionId)).frameLocator('#active-frame');
}

/** Saves a full-window screenshot to test-results/<name>.png and returns its path. */
export async function screenshot(page, name) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, name.endsWith('.png') ? name : `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** A fresh copy of test/fixtures/workspace (or `from`) in a temp dir; returns its real path. */
export async function freshWorkspace(from = join(REPO, 'test', 'fixtures', 'workspace')) {
  const { cpSync } = await import('node:fs');
  const dir = mkdtempSync(join(tmpdir(), 'tandem-ws-'));
  const ws = join(dir, 'workspace');
  cpSync(from, ws, { recursive: true });
  return realpathSync(ws);
}
