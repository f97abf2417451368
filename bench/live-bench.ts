/**
 * Live stream under slow consumers: a server with `--things` things receiving line-protocol writes
 * as fast as `--senders` senders go, and `--clients` clients of GET /api/query/live that never read
 * their socket. Reports the server's RSS every 5 s over `--seconds`, and whether the server closed
 * the streams. Issue 8: before back-pressure five such clients took the server from 672 MB to 1.5 GB.
 *
 *   npx tsx bench/live-bench.ts [--seconds 60] [--clients 5] [--things 20] [--senders 4] [--port 19050]
 */
import { connect, type Socket } from 'node:net';
import {
  Api,
  createPlant,
  fmt,
  loadAverage,
  log,
  machine,
  numArg,
  procStatusMb,
  removeDir,
  sleep,
  startServer,
  tempDir,
} from './harness.ts';

const SECONDS = numArg('seconds', 60);
const CLIENTS = numArg('clients', 5);
const THINGS = numArg('things', 20);
const SENDERS = numArg('senders', 4);
const PORT = numArg('port', 19050);
const LINES = 100;

async function main() {
  log(`live-bench: ${machine()}; ${CLIENTS} non-reading clients, ${THINGS} things, ${SECONDS} s`);
  const dataDir = tempDir('kilowatch-live-bench-');
  const server = await startServer({ dataDir, port: PORT, mqttPort: PORT + 1 });
  try {
    const api = new Api(server.base);
    await api.login();
    const plant = await createPlant(api, THINGS);
    const token = (api.headers['x-authorization'] as string).slice('Bearer '.length);
    const ids = plant.things.map((t) => t.id).join(',');

    const sockets: { socket: Socket; closed: boolean }[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const socket = connect(PORT, '127.0.0.1');
      const entry = { socket, closed: false };
      socket.on('close', () => (entry.closed = true));
      socket.on('error', () => (entry.closed = true));
      socket.write(
        `GET /api/query/live?thingIds=${ids}&token=${token} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`,
      );
      // Never read: the kernel buffers fill, then the server's.
      socket.pause();
      sockets.push(entry);
    }
    await sleep(500);

    let stop = false;
    let written = 0;
    let step = 0;
    const sender = async (s: number) => {
      while (!stop) {
        const thing = plant.things[(step++ + s) % plant.things.length]!;
        const base = Date.now() - LINES;
        const body = Array.from(
          { length: LINES },
          (_, k) =>
            `m P=${(k % 97) + 0.5},Q=${k % 13},Ua=230.5,Ub=229.5,Uc=231,Ia=${k % 7},Ib=1.5,Ic=2.5,T=35.5,EP=${step + k} ${base + k}`,
        ).join('\n');
        const res = await fetch(`${server.base}/api/v2/write?precision=ms&org=b&bucket=b`, {
          method: 'POST',
          headers: { authorization: `Token ${thing.token}` },
          body,
        });
        await res.arrayBuffer();
        if (res.status === 204) written += LINES * 9;
      }
    };
    const senders = Array.from({ length: SENDERS }, (_, s) => sender(s));

    const start = procStatusMb(server.pid, 'VmRSS');
    const samples: number[] = [start];
    log(`  t=0 s  rss ${fmt(start)} MB`);
    for (let t = 5; t <= SECONDS; t += 5) {
      await sleep(5000);
      const mb = procStatusMb(server.pid, 'VmRSS');
      samples.push(mb);
      log(`  t=${t} s  rss ${fmt(mb)} MB  values written ${fmt(written)}`);
    }
    stop = true;
    await Promise.all(senders);
    log(
      `result: rss ${fmt(start)} → ${fmt(samples.at(-1)!)} MB (max ${fmt(Math.max(...samples))} MB) over ${SECONDS} s; ` +
        `${fmt(written)} values written; ${loadAverage()}`,
    );
    // What each client still gets once it reads: the kernel's buffers plus what the server queued.
    const received = await Promise.all(
      sockets.map(
        ({ socket }) =>
          new Promise<{ bytes: number; closed: boolean }>((resolve) => {
            let bytes = 0;
            const finish = (closed: boolean) => resolve({ bytes, closed });
            const timer = setTimeout(() => finish(false), 10_000);
            socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
            socket.once('close', () => {
              clearTimeout(timer);
              finish(true);
            });
            socket.resume();
          }),
      ),
    );
    log(
      `clients on reading: ${received.map((r) => `${fmt(r.bytes / 1024 / 1024, 1)} MB${r.closed ? ' then closed' : ''}`).join(', ')}`,
    );
    for (const s of sockets) s.socket.destroy();
  } finally {
    await server.stop();
    removeDir(dataDir);
  }
}

await main();
