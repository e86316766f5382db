/** One CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180), quotes doubled */
export function csvField(value: string | number | boolean): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line, ended with CRLF as RFC 4180 writes it */
export function csvLine(values: readonly (string | number | boolean)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** A column of an export: its header and how a row writes it */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | boolean;
}

/** The header line, then each page's rows, until a page comes back short */
export async function* csvRows<T>(
  columns: readonly CsvColumn<T>[],
  readPage: (offset: number, limit: number) => Promise<T[]>,
  pageSize = 1000,
): AsyncGenerator<string> {
  yield csvLine(columns.map((c) => c.header));
  for (let offset = 0; ; offset += pageSize) {
    const rows = await readPage(offset, pageSize);
    if (rows.length > 0) yield rows.map((r) => csvLine(columns.map((c) => c.value(r)))).join('');
    if (rows.length < pageSize) return;
  }
}
