import { describe, expect, it } from 'vitest';
import { fileKeys } from './keys';
import { filesQueryOptions, uploadErrorMessage } from './files';

describe('uploadErrorMessage', () => {
  it("shows the server's error_message as is", () => {
    const body = JSON.stringify({
      error_code: 'BAD_INPUT',
      error_message: 'The file is empty: there is nothing to load',
    });
    expect(uploadErrorMessage(400, body)).toBe('The file is empty: there is nothing to load');
  });
  it('falls back to text without markup, then to the status', () => {
    expect(uploadErrorMessage(413, '<html><body>Payload   Too Large</body></html>')).toBe(
      'Payload Too Large',
    );
    expect(uploadErrorMessage(500, '')).toBe('The upload failed (HTTP 500)');
  });
  it('says when the instance is not reachable through the proxy', () => {
    expect(uploadErrorMessage(502, '')).toMatch(/not reachable \(HTTP 502\)/);
  });
});

describe('filesQueryOptions', () => {
  it('lives under the files key factory', () => {
    expect(filesQueryOptions().queryKey).toEqual(fileKeys.list());
    expect(fileKeys.list().slice(0, fileKeys.all.length)).toEqual(fileKeys.all);
  });
});
