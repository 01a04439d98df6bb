import { describe, expect, it } from 'vitest';
import { csvField, csvRecord } from './csv.js';

describe('CSV fields', () => {
  it('quotes as RFC 4180 requires and leaves plain text alone', () => {
    expect(csvRecord(['a', 'b c', 'x,y', 'say "hi"', 'two\nlines', null, undefined])).toBe(
      'a,b c,"x,y","say ""hi""","two\nlines",,\r\n',
    );
  });

  it('puts a single quote before text that a spreadsheet would read as a formula', () => {
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('+447700900123')).toBe("'+447700900123");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1:A2)')).toBe("'@SUM(A1:A2)");
    expect(csvField('\t=1+1')).toBe("'\t=1+1");
    // A carriage return also needs quotes, after the single quote.
    expect(csvField('\r=1+1')).toBe(`"'\r=1+1"`);
    expect(csvField('=HYPERLINK("http://x.example","y")')).toBe(`"'=HYPERLINK(""http://x.example"",""y"")"`);
    expect(csvField('=1,2')).toBe(`"'=1,2"`);
  });

  it('leaves text that only contains those characters later, and every number and boolean, as it is', () => {
    expect(csvField('user=1')).toBe('user=1');
    expect(csvField('a@example.com')).toBe('a@example.com');
    expect(csvField(' =1')).toBe(' =1');
    expect(csvField(-1500)).toBe('-1500');
    expect(csvField(0)).toBe('0');
    expect(csvField(true)).toBe('true');
  });

  it('writes the text as it is when asked to render a file from before neutralisation again', () => {
    expect(csvRecord(['=1+1', '+44', 'x,y'], { neutralise: false })).toBe('=1+1,+44,"x,y"\r\n');
  });
});
