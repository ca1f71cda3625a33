import { open } from "node:fs/promises";

/** One line of a file: its bytes (without the newline), where it starts, its 1-based number. */
export interface FileLine {
  /**
   * Valid until the next line is asked for (it may view the reader's buffer): copy what you keep. Null for a
   * line longer than MAX_LINE_BYTES, which is measured but never held.
   */
  bytes: Buffer | null;
  lengthBytes: number;
  offset: number;
  line: number;
  /** False for a last line without its newline (being written, or cut short). */
  complete: boolean;
}

/** A line longer than this is skipped, never held: JSON.parse takes strings up to about 512 M characters. */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;
const CHUNK_BYTES = 8 * 1024 * 1024;

export interface ReadLinesOptions {
  /** Start here (a line start) instead of at byte 0, counting lines from `firstLine`. */
  fromOffset?: number;
  firstLine?: number;
  signal?: AbortSignal;
  /** Lines longer than this are yielded without bytes (default MAX_LINE_BYTES). */
  maxLineBytes?: number;
}

/**
 * Reads a file line by line in large chunks, yielding each line's bytes and place. A line inside one chunk is
 * a view of it (no copy); a line that spans chunks is assembled from its pieces. Memory holds one chunk plus
 * the current line.
 */
export async function* readLines(path: string, options: ReadLinesOptions = {}): AsyncGenerator<FileLine> {
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const handle = await open(path, "r");
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let position = options.fromOffset ?? 0;
    let line = options.firstLine ?? 1;
    let lineStart = position;
    let pieces: Buffer[] = [];
    let pieceBytes = 0;
    let overlong = false;
    for (;;) {
      options.signal?.throwIfAborted();
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, position);
      if (bytesRead === 0) break;
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf(10, start);
        const end = newline < 0 || newline >= bytesRead ? bytesRead : newline;
        const whole = end < bytesRead && pieceBytes === 0 && end - start <= maxLineBytes;
        if (!overlong && !whole) {
          if (pieceBytes + end - start > maxLineBytes) {
            overlong = true;
            pieces = [];
          } else if (end > start) pieces.push(Buffer.from(chunk.subarray(start, end)));
        }
        pieceBytes += end - start;
        if (end === bytesRead) break;
        const bytes = overlong ? null : whole ? chunk.subarray(start, end) : joined(pieces, pieceBytes);
        yield { bytes, lengthBytes: pieceBytes, offset: lineStart, line, complete: true };
        line += 1;
        lineStart = position + end + 1;
        pieces = [];
        pieceBytes = 0;
        overlong = false;
        start = end + 1;
      }
      position += bytesRead;
    }
    if (pieceBytes > 0)
      yield {
        bytes: overlong ? null : joined(pieces, pieceBytes),
        lengthBytes: pieceBytes,
        offset: lineStart,
        line,
        complete: false,
      };
  } finally {
    await handle.close();
  }
}

function joined(pieces: Buffer[], totalBytes: number): Buffer {
  if (pieces.length === 1) return pieces[0]!;
  return Buffer.concat(pieces, totalBytes);
}
