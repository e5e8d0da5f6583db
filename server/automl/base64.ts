// Typed arrays as base64 strings, so a model artifact is plain JSON.

export function toBase64(a: ArrayBufferView): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}

export function fromBase64<T>(s: string, make: (buf: ArrayBuffer) => T): T {
  const b = Buffer.from(s, 'base64');
  // Copy into a fresh, aligned ArrayBuffer (Buffer's pool offset may not be aligned).
  const ab = new ArrayBuffer(b.length);
  new Uint8Array(ab).set(b);
  return make(ab);
}
