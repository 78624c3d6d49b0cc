// The comparison panel's HTML, as strings: the page (its CSP), the header and one column per
// agent. Every value that comes from an agent, git or the user (messages, paths, branch and agent
// names, the prompt) goes through escapeHtml; the final message is text in a pre-wrap block, never
// Markdown or HTML. The page script (media/comparison.js) only puts these strings in place.
import type { ColumnStatus, ColumnView, ComparisonView, FileChange, TestRun } from './comparisonModel';
import type { ComparisonAction } from './comparisonProtocol';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an element's content or a quoted attribute value. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

const icon = (name: string, extra = '') => `<span class="codicon codicon-${name}${extra}" aria-hidden="true"></span>`;

const STATUS: Record<ColumnStatus, { label: string; icon: string }> = {
  working: { label: 'working', icon: 'loading codicon-modifier-spin' },
  done: { label: 'done', icon: 'pass' },
  failed: { label: 'failed', icon: 'error' },
  disconnected: { label: 'disconnected', icon: 'debug-disconnect' },
  discarded: { label: 'discarded', icon: 'trash' },
};

const FILE_STATUS: Record<FileChange['status'], string> = {
  added: 'A',
  modified: 'M',
  deleted: 'D',
  renamed: 'R',
};

function counts(added: number | undefined, removed: number | undefined): string {
  if (added === undefined && removed === undefined) return '<span class="counts binary">binary</span>';
  return `<span class="counts"><span class="added">+${added ?? 0}</span> <span class="removed">−${removed ?? 0}</span></span>`;
}

function files(c: ColumnView): string {
  if (c.filesError) return `<p class="note error" data-testid="files-error">${escapeHtml(c.filesError)}</p>`;
  if (!c.files)
    return c.status === 'discarded'
      ? '<p class="note">Not known: its worktree is gone.</p>'
      : '<p class="note">Reading the changes…</p>';
  if (!c.files.length) return '<p class="note" data-testid="files">No files changed.</p>';
  const rows = c.files.map((f) => {
    const title = f.oldPath ? `${f.status} from ${f.oldPath}` : f.status;
    return (
      `<li class="file"><span class="file-status s-${f.status}" title="${escapeHtml(title)}">${FILE_STATUS[f.status]}</span>` +
      `<span class="path" title="${escapeHtml(f.path)}">${escapeHtml(f.path)}</span>${counts(f.added, f.removed)}</li>`
    );
  });
  return `<ul class="files" data-testid="files">${rows.join('')}</ul>`;
}

function tests(t: TestRun): string {
  switch (t.state) {
    case 'notRun':
      return '<p class="tests note" data-testid="tests" data-state="notRun">Not run in this worktree.</p>';
    case 'running':
      return `<p class="tests" data-testid="tests" data-state="running">${icon('loading', ' codicon-modifier-spin')} Running ${escapeHtml(t.task)}…</p>`;
    case 'passed':
    case 'failed': {
      const code = t.exitCode === undefined ? '' : ` (exit code ${t.exitCode})`;
      const mark = t.state === 'passed' ? icon('pass') : icon('error');
      return `<p class="tests tests-${t.state}" data-testid="tests" data-state="${t.state}">${mark} ${escapeHtml(t.task)} ${t.state}${escapeHtml(code)}</p>`;
    }
    case 'noTask':
      return '<p class="tests note" data-testid="tests" data-state="noTask">The workspace has no test task.</p>';
    case 'error':
      return `<p class="tests tests-failed" data-testid="tests" data-state="error">${icon('error')} ${escapeHtml(t.message)}</p>`;
  }
}

function button(action: ComparisonAction, label: string, enabled: boolean, primary = false): string {
  const cls = primary ? 'button' : 'button secondary';
  return `<button class="${cls}" data-action="${action}" data-testid="${action}"${enabled ? '' : ' disabled'}>${label}</button>`;
}

export function renderColumn(c: ColumnView): string {
  const s = STATUS[c.status];
  const applied = c.applied ? `<span class="applied" data-testid="applied">${icon('check')} applied</span>` : '';
  const branch = c.branch
    ? `<div class="branch">${icon('git-branch')}<span data-testid="branch">${escapeHtml(c.branch)}</span></div>`
    : '<div class="branch note">no worktree</div>';
  const totals = c.files?.length
    ? ` <span class="totals" data-testid="totals">${c.files.length} · ${counts(c.added, c.removed)}</span>`
    : '';
  const message = c.message
    ? `<div class="message" data-testid="message">${escapeHtml(c.message)}${c.messageCut ? '\n…' : ''}</div>`
    : `<p class="note" data-testid="message-none">${c.status === 'working' ? 'Nothing yet.' : 'No message.'}</p>`;
  return (
    `<section class="column status-${c.status}" data-session="${escapeHtml(c.sessionId)}" data-testid="column">` +
    `<header class="column-head"><h2 class="agent" data-testid="agent">${escapeHtml(c.agentName)}</h2>` +
    `<span class="status" data-testid="status" data-status="${c.status}">${icon(s.icon)} ${s.label}</span>${applied}</header>` +
    branch +
    (c.detail ? `<p class="detail" data-testid="detail">${escapeHtml(c.detail)}</p>` : '') +
    // A discarded column has nothing left to act on: no row of disabled buttons.
    (c.status === 'discarded'
      ? ''
      : `<div class="actions">${button('showSession', 'Show Session', c.can.show)}${button('review', 'Review', c.can.review)}` +
        `${button('runTests', 'Run Tests', c.can.runTests)}${button('apply', 'Apply This One', c.can.apply, true)}</div>`) +
    `<h3>Files${totals}</h3>${files(c)}` +
    `<h3>Tests</h3>${tests(c.tests)}` +
    `<h3>${c.status === 'working' ? 'Latest message' : 'Final message'}</h3>${message}` +
    '</section>'
  );
}

export function renderHeader(v: ComparisonView): string {
  const applied = v.appliedAgent
    ? ` · <span data-testid="applied-agent">${escapeHtml(v.appliedAgent)}'s work applied</span>`
    : '';
  return (
    '<header class="page-head">' +
    `<div class="prompt" data-testid="prompt" title="${escapeHtml(v.prompt)}">${escapeHtml(v.prompt)}</div>` +
    `<span class="note">${v.columns.length} ${v.columns.length === 1 ? 'agent' : 'agents'}${applied}</span>` +
    `<button class="button secondary" data-action="refresh" data-testid="refresh">${icon('refresh')} Refresh</button>` +
    '</header>'
  );
}

export function renderComparison(v: ComparisonView): { header: string; columns: { id: string; html: string }[] } {
  return { header: renderHeader(v), columns: v.columns.map((c) => ({ id: c.sessionId, html: renderColumn(c) })) };
}

export interface PageOptions {
  /** webview.cspSource: the only origin styles and fonts load from. */
  cspSource: string;
  /** Fresh per load; the one script runs by it. */
  nonce: string;
  script: string;
  styles: readonly string[];
  title: string;
}

/** The page shell: a strict CSP (nothing inline, no eval, scripts by nonce only), then the script fills it. */
export function comparisonPage(o: PageOptions): string {
  const csp = [
    `default-src 'none'`,
    `script-src 'nonce-${o.nonce}'`,
    `style-src ${o.cspSource}`,
    `font-src ${o.cspSource}`,
    `img-src ${o.cspSource} data:`,
  ].join('; ');
  const styles = o.styles.map((s) => `<link rel="stylesheet" href="${escapeHtml(s)}">`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${styles}
<title>${escapeHtml(o.title)}</title>
</head>
<body>
<main id="root" data-testid="comparison"><div id="head"></div><div id="columns" class="columns"></div></main>
<script nonce="${escapeHtml(o.nonce)}" src="${escapeHtml(o.script)}"></script>
</body>
</html>`;
}
