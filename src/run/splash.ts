/**
 * The first line on the terminal, at once. Loading Ink (with its layout engine), React and the
 * steps and, for `lab`, starting the lab take about a second before the TUI's first frame;
 * meanwhile the operator sees what is happening instead of a blank screen (BENCHMARKS.md, "first
 * frame"). Whatever is written next, to stdout or stderr (the TUI's first frame, an error), first
 * erases the line, so it is never left behind or mixed into other output.
 */
type Write = NodeJS.WritableStream['write'];

export function showSplash(stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream, doing: string): void {
  stdout.write(`upgrade-pilot · ${doing}…`);
  const originals: Array<[NodeJS.WritableStream, Write]> = [
    [stdout, stdout.write],
    [stderr, stderr.write],
  ];
  const restore = () => {
    for (const [stream, write] of originals) stream.write = write;
    stdout.write('\r\x1b[2K');
  };
  for (const [stream, write] of originals) {
    stream.write = function (this: NodeJS.WritableStream, ...args: Parameters<Write>) {
      restore();
      return write.apply(stream, args);
    } as Write;
  }
}
