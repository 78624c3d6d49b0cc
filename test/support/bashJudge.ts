// Bash as the judge of the command model: runs a line with `bash -c` in a scratch folder whose
// PATH holds only stub programs. Each stub writes its argv to a log and does nothing else, so
// the test sees exactly which commands bash ran, with which arguments, and whether any file
// appeared (a redirection, or a command the stubs did not cover).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface BashRun {
  /** argv of every stub bash ran (program name first), in no particular order. */
  ran: string[][];
  /** Files that appeared in the scratch folder. */
  created: string[];
  status: number | null;
}

export class BashJudge {
  private readonly root = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-bash-judge-'));
  private readonly bin = path.join(this.root, 'bin');
  private readonly log = path.join(this.root, 'log');
  private readonly work = path.join(this.root, 'work');

  constructor(programs: readonly string[]) {
    for (const d of [this.bin, this.log, this.work]) fs.mkdirSync(d);
    // A NUL after each word: any argument, newlines and quotes included, comes back as it was.
    const stub = `#!/bin/bash\nprintf '%s\\0' "\${0##*/}" "$@" > "$TANDEM_ARGV_LOG/$BASHPID-$RANDOM$RANDOM"\n`;
    for (const p of programs) fs.writeFileSync(path.join(this.bin, p), stub, { mode: 0o755 });
  }

  run(line: string): BashRun {
    for (const f of fs.readdirSync(this.log)) fs.rmSync(path.join(this.log, f));
    fs.rmSync(this.work, { recursive: true, force: true });
    fs.mkdirSync(this.work);
    const r = spawnSync('/bin/bash', ['-c', line], {
      cwd: this.work,
      env: { PATH: this.bin, TANDEM_ARGV_LOG: this.log, HOME: this.work, LC_ALL: 'C' },
      timeout: 10_000,
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    const ran = fs.readdirSync(this.log).map((f) => {
      const words = fs.readFileSync(path.join(this.log, f), 'utf8').split('\0');
      words.pop();
      return words;
    });
    const escaped = fs.readdirSync(this.root).filter((f) => !['bin', 'log', 'work'].includes(f));
    return { ran, created: [...fs.readdirSync(this.work), ...escaped.map((f) => `../${f}`)], status: r.status };
  }

  dispose(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}
