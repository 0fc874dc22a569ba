/**
 * The body of a streamed export (audit log export, trade export): pages of rows read one after
 * another, written as CSV (a header row, then each row's lines, CRLF) or as one JSON array — in
 * constant memory whatever the history's size.
 */
import { Readable } from "node:stream";

/** Streams `pages()` as CSV (`header`, then `csvRows(row)` per row) or as a JSON array of the rows. */
export function exportStream<T>(format: "csv" | "json", pages: () => AsyncIterable<T[]>, header: readonly string[], csvRows: (row: T) => string): Readable {
  async function* body(): AsyncGenerator<string> {
    if (format === "csv") {
      yield header.join(",") + "\r\n";
      for await (const rows of pages()) yield rows.map(csvRows).join("");
      return;
    }
    yield "[";
    let first = true;
    for await (const rows of pages()) {
      for (const r of rows) {
        yield (first ? "\n" : ",\n") + JSON.stringify(r);
        first = false;
      }
    }
    yield "\n]\n";
  }
  return Readable.from(body());
}
