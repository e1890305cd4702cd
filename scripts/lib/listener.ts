import { createServer } from 'node:http';

/** A server of an attacker's on loopback: it answers `{"ok":true}` to anything, and keeps every request it gets, headers included. */
export interface Listener {
  url: string;
  /** `METHOD /path {headers}`, in order; empty it to start over. */
  received: string[];
  close(): Promise<void>;
}

export async function startListener(): Promise<Listener> {
  const received: string[] = [];
  const server = createServer((request, response) => {
    received.push(`${request.method} ${request.url} ${JSON.stringify(request.headers)}`);
    response.setHeader('content-type', 'application/json');
    response.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
