// Feeds recorded agent traffic (test/fixtures/acp-transcripts) through a WireObserver as the
// traffic hook would: `c->a` is Tandem → agent ('out'), `a->c` agent → Tandem ('in').
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WireObserver } from '../../../../src/client/capabilities/wireObserver';
import { transcriptsDir } from '../../../support/paths';

export function observe(...transcripts: string[]): WireObserver {
  const wire = new WireObserver();
  for (const name of transcripts)
    for (const line of readFileSync(join(transcriptsDir, `${name}.jsonl`), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const { dir, msg } = JSON.parse(line) as { dir: 'c->a' | 'a->c'; msg: unknown };
      wire.observe(dir === 'c->a' ? 'out' : 'in', msg);
    }
  return wire;
}
