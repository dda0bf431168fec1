import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { webcrypto } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { gatewayPath } from '../../contracts/hub/protocol';
import { sleep, until } from '../../test-support/until';
import { GatewayClient } from './client';

/**
 * The gateway's half of the keep-alive (docs/gateway-protocol.md section 3), against a websocket
 * server that speaks the protocol's opening (challenge, authenticate, welcome) with an interval
 * of one second, below what a config may ask (5 s), so that the test takes seconds. The server's
 * side of a connection is then stalled, as a link that died without a close would be: nothing
 * it sends arrives and it answers no ping.
 */
describe('the gateway client keep-alive', () => {
  let server: WebSocketServer;
  const connections: { socket: WebSocket; request: IncomingMessage }[] = [];
  let client: GatewayClient;
  let folder: string;

  beforeAll(async () => {
    server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: gatewayPath });
    await new Promise((resolve) => server.once('listening', resolve));
    server.on('connection', (socket, request) => {
      connections.push({ socket, request });
      socket.send(JSON.stringify({ id: 'c1', type: 'challenge', payload: { nonce: Buffer.from('nonce').toString('base64') } }));
      socket.on('message', (data) => {
        const envelope = JSON.parse(data.toString()) as { type: string };
        if (envelope.type === 'authenticate') {
          socket.send(JSON.stringify({ id: 'w1', type: 'welcome', payload: { identifier: 'gw-keep-alive', keepAliveSeconds: 1 } }));
        }
      });
    });
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-keep-alive-'));
    const { privateKey } = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
    const address = server.address();
    client = new GatewayClient({
      baseUrl: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`,
      identity: { certificatePem: 'not checked by this server', privateKey },
      storeDirectory: folder,
      minBackoffMs: 50,
      maxBackoffMs: 100,
    });
  });

  afterAll(async () => {
    await client.stop();
    for (const { request } of connections) {
      request.socket.destroy();
    }
    await new Promise((resolve) => server.close(resolve));
    rmSync(folder, { recursive: true, force: true });
  });

  it('keeps a link that answers its pings, and drops one from which nothing arrives for two intervals, then reconnects', async () => {
    await client.start();
    await client.connected();
    expect(client.keepAliveSeconds).toBe(1);
    // Three intervals in which the server sends nothing of its own: only the pongs to the client's pings arrive.
    await sleep(3500);
    expect([client.connections, client.silentDrops, connections.length]).toEqual([1, 0, 1]);

    connections[0]?.request.socket.pause();
    await until('the silent link dropped and a new connection welcomed', () => client.silentDrops === 1 && client.connections === 2, 15_000);
    expect(connections).toHaveLength(2);
  });
});
