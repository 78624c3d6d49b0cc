// Enter pressed while the composer waits (a new session opening): the prompt is kept, the user is
// told, and it is sent once the composer is enabled again — never into the session on screen.
import { useEffect, useRef, useState } from 'preact/hooks';

/** Returns `arm(note)`: shows `note` on the composer's note line and sends when `enabled` turns true. */
export function useSendWhenEnabled(
  enabled: boolean,
  send: () => void,
  setNote: (note: string) => void,
): (note: string) => void {
  const [armed, setArmed] = useState(false);
  const latest = useRef(send);
  latest.current = send;
  useEffect(() => {
    if (enabled && armed) {
      setArmed(false);
      latest.current();
    }
  }, [enabled, armed]);
  return (note) => {
    setNote(note);
    setArmed(true);
  };
}
