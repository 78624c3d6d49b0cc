// The time by the file system's clock: file times come from the kernel's coarse clock, which lags
// Date.now() by up to a tick (4 ms here), so checkpoint times are read from the same clock as the
// times of the changes they are compared with (a write to a small file in the storage folder).
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export function fsClock(dir: string): number {
  const probe = path.join(dir, 'clock');
  try {
    writeFileSync(probe, '');
    return statSync(probe).mtimeMs;
  } catch {
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(probe, '');
      return statSync(probe).mtimeMs;
    } catch {
      return Date.now();
    }
  }
}
