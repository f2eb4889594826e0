import { startChildServer } from './child-server';

/** Reads each request body to the end, stores nothing, answers 201. */
const source = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{}'));
});
server.listen(0, '127.0.0.1', () => console.log('listening on ' + server.address().port));
`;

/**
 * A server in its own process that discards what it receives: an upload to it costs the client,
 * the loopback and the reading of the body and nothing else, the floor under any real upload.
 */
export function startDiscardServer() {
  return startChildServer(['-e', source]);
}
