import { createHash, type Hash } from 'node:crypto';
import { csvRecord, type CsvValue } from '../../platform/csv.js';

export const REPORT_FORMATS = ['csv', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface CompiledContent {
  content_csv: string;
  content_json: string;
  sha256_csv: string;
  sha256_json: string;
  row_count: number;
  daily_counts: Record<string, number>;
}

/**
 * Writes one report version in both formats as its rows arrive: CSV (RFC 4180, UTF-8, CRLF, one header row) and
 * JSON (`{"report": header, "rows": [...], "totals": [...]}`), hashing each as it grows. The header holds what the
 * data is (tenant, type, period, generator), not when it was compiled, so the same data gives the same bytes.
 */
export class ReportWriter {
  private readonly csv: string[] = [];
  private readonly json: string[] = [];
  private readonly totals: string[] = [];
  private readonly csvHash: Hash = createHash('sha256');
  private readonly jsonHash: Hash = createHash('sha256');
  private rows = 0;
  private readonly days = new Map<string, number>();

  constructor(
    header: Record<string, unknown>,
    private readonly columns: readonly string[],
    /** Whether totals are CSV records too (they share the rows' columns), or only in the JSON's totals. */
    private readonly totalsInCsv: boolean,
  ) {
    this.csvOut(csvRecord(columns));
    this.jsonOut(`{"report":${JSON.stringify(header)},"rows":[`);
  }

  private csvOut(text: string) {
    this.csv.push(text);
    this.csvHash.update(text, 'utf8');
  }

  private jsonOut(text: string) {
    this.json.push(text);
    this.jsonHash.update(text, 'utf8');
  }

  /** A detail row; `day` (YYYY-MM-DD) counts it in the daily counts the console charts. */
  row(record: Record<string, CsvValue>, day: string | null): void {
    this.csvOut(csvRecord(this.columns.map((c) => record[c])));
    this.jsonOut(`${this.rows === 0 ? '' : ','}${JSON.stringify(record)}`);
    this.rows++;
    if (day) this.days.set(day, (this.days.get(day) ?? 0) + 1);
  }

  total(record: Record<string, CsvValue>): void {
    if (this.totalsInCsv) this.csvOut(csvRecord(this.columns.map((c) => record[c])));
    this.totals.push(JSON.stringify(record));
  }

  finish(): CompiledContent {
    this.jsonOut(`],"totals":[${this.totals.join(',')}]}\n`);
    return {
      content_csv: this.csv.join(''),
      content_json: this.json.join(''),
      sha256_csv: this.csvHash.digest('hex'),
      sha256_json: this.jsonHash.digest('hex'),
      row_count: this.rows,
      daily_counts: Object.fromEntries([...this.days].sort(([a], [b]) => a.localeCompare(b))),
    };
  }
}
