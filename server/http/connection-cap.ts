/**
 * A cap on the TCP connections one client address holds open. Node keeps every accepted socket
 * until its request arrives or its headers time out (a minute), so a client opening connections
 * it never uses (half-open, slowloris) could hold thousands of file descriptors; past the cap a
 * connection gets a 503 in MindsDB's problem details and is closed before anything is read.
 */
import type { Server } from 'node:http';
import { ERROR_CODES } from '../errors';

const refusal = (cap: number) => {
  const body = JSON.stringify({
    title: 'Service Unavailable',
    detail: `Too many open connections from this address (the limit is ${cap}, MAX_CONNECTIONS_PER_CLIENT); close some and retry`,
    error_code: ERROR_CODES.BUSY,
    error_message: `Too many open connections from this address (the limit is ${cap}, MAX_CONNECTIONS_PER_CLIENT); close some and retry`,
  });
  return `HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nRetry-After: 1\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
};

export function capConnectionsPerClient(server: Server, cap: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const key = socket.remoteAddress ?? '';
    const n = (open.get(key) ?? 0) + 1;
    if (n > cap) {
      socket.end(refusal(cap));
      // Not waiting for the client to read it: the descriptor is what the cap protects.
      setTimeout(() => socket.destroy(), 1000).unref();
      return;
    }
    open.set(key, n);
    socket.once('close', () => {
      const m = (open.get(key) ?? 1) - 1;
      if (m > 0) open.set(key, m);
      else open.delete(key);
    });
  });
}
