/* global acquireVsCodeApi, document, window */
// The comparison panel's page (src/vscode/worktrees/comparisonPanel.ts). The host renders the
// header and every column as escaped HTML (src/shared/comparisonHtml.ts); this script only puts
// them in place and posts the buttons' clicks back. A column is replaced only when its HTML
// changed, so an agent still streaming does not reset the scroll of the others. Plain script, no
// framework: it is small, and the webview bundle's size budget is for the session view.
(function () {
  const vscode = acquireVsCodeApi();
  const head = document.getElementById('head');
  const columns = document.getElementById('columns');
  /** Session id → its slot and the HTML it holds. */
  const shown = new Map();
  let lastHeader = '';

  window.addEventListener('message', (event) => {
    const m = event.data;
    if (!m || m.type !== 'render' || !Array.isArray(m.columns)) return;
    // A reload of the window brings the panel back through the host's serializer, which finds
    // the comparison by this id.
    vscode.setState({ comparisonId: m.comparisonId });
    if (m.header !== lastHeader) {
      head.innerHTML = m.header;
      lastHeader = m.header;
    }
    const ids = new Set(m.columns.map((c) => c.id));
    for (const [id, slot] of shown)
      if (!ids.has(id)) {
        slot.el.remove();
        shown.delete(id);
      }
    m.columns.forEach((c, i) => {
      let slot = shown.get(c.id);
      if (!slot) {
        const el = document.createElement('div');
        el.className = 'slot';
        el.setAttribute('data-session', c.id);
        slot = { el, html: '' };
        shown.set(c.id, slot);
      }
      if (slot.html !== c.html) {
        slot.el.innerHTML = c.html;
        slot.html = c.html;
      }
      if (columns.children[i] !== slot.el) columns.insertBefore(slot.el, columns.children[i] || null);
    });
  });

  document.addEventListener('click', (event) => {
    const target = event.target;
    const button = target && target.closest ? target.closest('button[data-action]') : null;
    if (!button || button.disabled) return;
    const action = button.getAttribute('data-action');
    const slot = button.closest('.slot');
    vscode.postMessage(slot ? { type: action, sessionId: slot.getAttribute('data-session') } : { type: action });
  });

  vscode.postMessage({ type: 'ready' });
})();
