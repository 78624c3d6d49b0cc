import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { HostMessage } from '../shared/protocol';
import { App } from './components/App';
import { Mirror, type ViewModel } from './mirror';
import { post } from './vscodeApi';

const mirror = new Mirror();

function Root() {
  const [vm, setVm] = useState<ViewModel>(mirror.current);
  useEffect(() => mirror.subscribe(setVm), []);
  return <App vm={vm} />;
}

window.addEventListener('message', (e: MessageEvent<HostMessage>) => {
  if (e.data && typeof e.data === 'object' && 'type' in e.data) mirror.receive(e.data);
});

render(<Root />, document.getElementById('root')!);
// Handshake: the host queues everything until it hears this, then sends a snapshot.
post({ type: 'ready' });
