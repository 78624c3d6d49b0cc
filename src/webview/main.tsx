import { render } from 'preact';
import { App, SessionTabs } from './components/App';
import { listen } from './dispatch';
import { createHost, HostContext, type VsCodeApi } from './host';
import { permissionCard, toolDetails } from './lazy';
import { openHref } from './links';
import { Mirror } from './mirror';
import { useMirror } from './useMirror';

declare function acquireVsCodeApi(): VsCodeApi;
const host = createHost(acquireVsCodeApi());
const mirror = new Mirror();

function Root() {
  const vm = useMirror(mirror);
  return (
    <HostContext.Provider value={host}>
      <App vm={vm} />
    </HostContext.Provider>
  );
}

// Every message from the host, through the one dispatcher (dispatch.ts).
listen(window, host, mirror);

// Polite announcements (tool calls finishing, turns ending), throttled so a flood of
// completions is one sentence, not a thousand.
const live = document.createElement('div');
live.className = 'sr-only';
live.setAttribute('role', 'status');
live.setAttribute('aria-live', 'polite');
live.setAttribute('data-testid', 'announcer');
document.body.appendChild(live);
let lastAnnounce = 0;
let queued: string | undefined;
mirror.onAnnounce((text) => {
  const now = Date.now();
  if (now - lastAnnounce > 1000) {
    live.textContent = text;
    lastAnnounce = now;
    return;
  }
  if (!queued)
    setTimeout(() => {
      live.textContent = queued ?? '';
      queued = undefined;
      lastAnnounce = Date.now();
    }, 1000);
  queued = text;
});

// Links and code-copy buttons inside rendered markdown (delegated: markdown is HTML strings).
document.addEventListener('click', (e) => {
  const t = e.target as HTMLElement | null;
  const copy = t?.closest<HTMLElement>('[data-copy]');
  if (copy) {
    const code = copy.closest('.code-block')?.querySelector('code')?.textContent ?? '';
    host.post({ type: 'copyText', text: code });
    copy.classList.add('copied');
    setTimeout(() => copy.classList.remove('copied'), 1200);
    e.preventDefault();
    return;
  }
  const a = t?.closest<HTMLAnchorElement>('.md a[href]');
  if (!a) return;
  e.preventDefault();
  openHref(host, a.getAttribute('href') ?? '');
});

render(<Root />, document.getElementById('root')!);
// Preload the expanded tool-call view, the permission prompt and the session tabs once the first paint is done (the
// terminal renderer stays lazy until a terminal shows).
const idle = (cb: () => void) =>
  typeof requestIdleCallback === 'function' ? requestIdleCallback(cb, { timeout: 3000 }) : setTimeout(cb, 1500);
idle(() => {
  void toolDetails.load();
  void permissionCard.load();
  void SessionTabs.load();
});
// Handshake: until it hears this the host sends nothing (it drops patches: the snapshot it sends
// on `ready` already holds them); then patches follow the snapshot.
host.post({ type: 'ready' });
