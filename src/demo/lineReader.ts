// Newline-delimited JSON-RPC input for the demo agents (scripted and replay): each non-blank
// line, then the end of the input (a last line without its newline included); a line that is
// not JSON gets the JSON-RPC "Parse error" answer.

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

/** The line as JSON, or undefined after answering the JSON-RPC "Parse error" through `send`. */
export function parseLine<T>(line: string, send: (msg: Record<string, unknown>) => void): T | undefined {
  try {
    return JSON.parse(line) as T;
  } catch {
    send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    return undefined;
  }
}
