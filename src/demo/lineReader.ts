// Newline-delimited input for the demo agents (scripted and replay): each non-blank line, then
// the end of the input, a last line without its newline included.

export function readLines(input: NodeJS.ReadableStream, onLine: (line: string) => void, onEnd: () => void): void {
  let buffer = '';
  input.setEncoding('utf8');
  input.on('data', (d: string) => {
    buffer += d;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim()) onLine(line);
    }
  });
  input.on('end', () => {
    if (buffer.trim()) onLine(buffer);
    buffer = '';
    onEnd();
  });
}
