import { describe, expect, it } from 'vitest';
import { curlSnippet, fetchSnippet, predictPath, shellQuote } from './snippets';

const req = {
  method: 'POST' as const,
  url: 'http://127.0.0.1:4319/api/projects/mindsdb/models/home_rentals_model/predict',
  body: `[{"location":"o'hare","sqft":823}]`,
};

describe('snippets', () => {
  it('quotes for the shell so any text survives, including single quotes', () => {
    expect(shellQuote(`it's`)).toBe(`'it'\\''s'`);
  });

  it('copies the request as curl with the exact body', () => {
    expect(curlSnippet(req)).toBe(
      [
        `curl -X POST 'http://127.0.0.1:4319/api/projects/mindsdb/models/home_rentals_model/predict'`,
        `  -H 'Content-Type: application/json'`,
        `  --data-raw '[{"location":"o'\\''hare","sqft":823}]'`,
      ].join(' \\\n'),
    );
  });

  it('copies the request as fetch with the body as a string literal of the exact text', () => {
    const s = fetchSnippet(req);
    expect(s).toContain(`await fetch("${req.url}"`);
    const literal = /body: (".*"),\n/.exec(s)?.[1];
    expect(JSON.parse(literal!)).toBe(req.body);
  });

  it('builds the predict path with a version suffix', () => {
    expect(predictPath('my proj', 'm', 2)).toBe('/api/projects/my%20proj/models/m.2/predict');
  });
});
