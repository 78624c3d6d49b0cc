// What the agent reads of a command that ran in a real terminal (terminal/output): the terminal's
// data as plain text. A terminal's output carries escape sequences (colors, cursor moves, titles,
// shell-integration marks) and CRLF line ends; the view renders those, but an agent wants the text,
// as a pipe would have given it. Streaming: a sequence or a CRLF split across chunks is handled.
// Escape sequences are ASCII, so working on bytes never cuts into a UTF-8 character.

const ESC = 0x1b;
const BEL = 0x07;
const CR = 0x0d;
const LF = 0x0a;

type State = 'text' | 'esc' | 'escIntermediate' | 'csi' | 'string' | 'stringEsc';

export class TerminalTextFilter {
  private state: State = 'text';
  /** A CR at the end of the last chunk: dropped when a LF follows, else kept. */
  private pendingCr = false;

  push(chunk: Uint8Array): Buffer {
    const out = Buffer.allocUnsafe(chunk.length + 1);
    let n = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      switch (this.state) {
        case 'text':
          if (this.pendingCr) {
            this.pendingCr = false;
            if (b !== LF) out[n++] = CR;
          }
          if (b === ESC) this.state = 'esc';
          else if (b === CR) this.pendingCr = true;
          else if (b !== BEL) out[n++] = b;
          break;
        case 'esc':
          if (b === 0x5b /* [ */) this.state = 'csi';
          // OSC ], DCS P, SOS X, PM ^, APC _: a string ended by BEL or ESC \.
          else if (b === 0x5d || b === 0x50 || b === 0x58 || b === 0x5e || b === 0x5f) this.state = 'string';
          else if (b >= 0x20 && b <= 0x2f) this.state = 'escIntermediate';
          else this.state = 'text'; // a two-byte sequence (ESC 7, ESC =, ESC M, …)
          break;
        case 'escIntermediate':
          if (b < 0x20 || b > 0x2f) this.state = 'text'; // the final byte (ESC ( B)
          break;
        case 'csi':
          if (b >= 0x40 && b <= 0x7e) this.state = 'text'; // the final byte
          break;
        case 'string':
          if (b === BEL) this.state = 'text';
          else if (b === ESC) this.state = 'stringEsc';
          break;
        case 'stringEsc':
          this.state = b === 0x5c /* \ */ ? 'text' : b === ESC ? 'stringEsc' : 'string';
          break;
      }
    }
    return out.subarray(0, n);
  }
}
