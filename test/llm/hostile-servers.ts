import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Misbehaving HTTP servers on 127.0.0.1 for the deadline and size caps: they answer
 * 200 with headers at once, then a body that never ends in time.
 */
export interface HostileServer {
  url: string;
  /** Bytes of body written so far, over all requests. */
  bytesSent(): number;
  requests(): number;
  close(): Promise<void>;
}

export type Behaviour = 'slow-body' | 'endless-body';

export async function startHostileServer(behaviour: Behaviour): Promise<HostileServer> {
  let sent = 0;
  let requests = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res: ServerResponse) => {
    requests += 1;
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (behaviour === 'slow-body') {
        // A valid JSON body, one byte a second: it would take minutes to finish.
        const body = JSON.stringify({ choices: [{ message: { content: 'x'.repeat(500) } }] });
        let i = 0;
        const t = setInterval(() => {
          if (res.destroyed || i >= body.length) {
            clearInterval(t);
            timers.delete(t);
            if (!res.destroyed) res.end();
            return;
          }
          res.write(body[i++]);
          sent += 1;
        }, 1000);
        timers.add(t);
      } else {
        // An endless chunked body, as fast as the client reads it.
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        res.write('{"choices": [');
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk)) sent += chunk.length;
          if (!res.destroyed) {
            sent += chunk.length;
            res.once('drain', pump);
          }
        };
        pump();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    bytesSent: () => sent,
    requests: () => requests,
    close: () =>
      new Promise<void>((r) => {
        for (const t of timers) clearInterval(t);
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
