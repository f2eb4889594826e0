// A real S3-speaking server (s3rver) in a process of its own: `node --openssl-legacy-provider
// --import tsx s3-server-process.ts <folder> [bucket…]`. Prints `listening on <port>` once it
// serves; stops on SIGTERM. s3rver encrypts listing continuation tokens with DES, which Node's
// OpenSSL 3 offers only with its legacy provider: hence a process with that flag, not the tests'.
import S3rver from 's3rver';

const [directory, ...buckets] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  directory,
  silent: true,
  vhostBuckets: false,
  configureBuckets: buckets.map((name) => ({ name })),
});
const { port } = await server.run();
console.log(`listening on ${port}`);
process.on('SIGTERM', () => {
  void server.close().finally(() => process.exit(0));
});
