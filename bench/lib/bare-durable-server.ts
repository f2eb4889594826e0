import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { LocalStorage } from '../../apps/server/src/storage/local-storage';
import { startChildServer } from './child-server';

/**
 * A bare node:http server that stores each request body exactly as an upload's bytes are stored:
 * the product's LocalStorage.put (a temp file through DurableFileWriter: 1 MB writes, flushes
 * while the body arrives, rename, fsync of file and folder), with no sign-in check, multipart
 * parsing or database. Its speed is what this durability leaves of the disk's on this machine,
 * before any of the product's own work.
 */
export function startBareDurableServer(dir: string) {
  return startChildServer(['--import', 'tsx', fileURLToPath(import.meta.url)], {
    BARE_SERVER_DIR: dir,
  });
}

// Run as the child: `node --import tsx bare-durable-server.ts` with BARE_SERVER_DIR set.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const storage = new LocalStorage(process.env.BARE_SERVER_DIR!);
  let n = 0;
  const server = createServer((req, res) => {
    const key = `bare/${process.pid}-${n++}`;
    storage.put(key, req).then(
      () => {
        res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
        // removed after the answer, as the bench deletes each upload outside its timing
        void storage.delete(key);
      },
      (err: Error) => res.writeHead(500).end(JSON.stringify({ error: err.message })),
    );
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    console.log(`listening on ${typeof address === 'object' && address ? address.port : ''}`);
  });
}
