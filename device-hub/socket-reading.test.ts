import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket, { WebSocketServer } from 'ws';
import { selfSigned } from '../test-support/tls';
import { sleep, until } from '../test-support/until';
import { readAgain, stopReading } from './socket-reading';

/** The server's end of one websocket: frames taken, where reading stopped, and any socket error. */
interface ServerEnd {
  socket: Socket;
  ws: WebSocket;
  frames: number[];
  readWhenStopped: number | null;
  errors: string[];
}

/**
 * Websockets on loopback, plain or over TLS, as the gateway hub serves them (noServer, upgraded
 * by hand): each server end stops reading after its 10th frame while its client sends 500 frames
 * of 400 bytes (200 KB) at once, then reads again.
 */
describe.each(['tcp', 'tls'] as const)('stopReading and readAgain over %s', (transport) => {
  const clients = 20;
  const framesEach = 500;
  const stopAfter = 10;
  let folder: string;
  let server: Server;
  let url: string;
  let ca: string | undefined;
  const ends: ServerEnd[] = [];

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-socket-reading-'));
    const certificate = transport === 'tls' ? selfSigned(folder, 'server') : null;
    ca = certificate?.certificatePem;
    server = certificate ? createHttpsServer({ cert: certificate.certificatePem, key: certificate.privateKeyPem }) : createServer();
    const sockets = new WebSocketServer({ noServer: true });
    server.on('upgrade', (request, socket: Socket, head: Buffer) =>
      sockets.handleUpgrade(request, socket, head, (ws) => {
        const end: ServerEnd = { socket, ws, frames: [], readWhenStopped: null, errors: [] };
        ends.push(end);
        socket.on('error', (error) => end.errors.push(error.message));
        ws.on('message', (data: Buffer) => {
          end.frames.push(Number(JSON.parse(data.toString()).index));
          if (end.frames.length === stopAfter) {
            ws.pause();
            stopReading(socket);
            end.readWhenStopped = socket.bytesRead;
          }
        });
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `${certificate ? 'wss' : 'ws'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    ends.forEach((end) => end.socket.destroy());
    await new Promise((resolve) => server.close(resolve));
    rmSync(folder, { recursive: true, force: true });
  });

  it(`reads nothing more from the kernel while stopped (over TLS: at most what OpenSSL had taken), and takes every frame in order once reading again`, async () => {
    const sent = await Promise.all(
      Array.from({ length: clients }, async () => {
        const client = new WebSocket(url, ca ? { ca } : {});
        await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));
        return client;
      }),
    );
    const padding = 'x'.repeat(400);
    sent.forEach((client) => Array.from({ length: framesEach }, (_, index) => client.send(JSON.stringify({ index, padding }))));
    await until('every server end to stop reading', () => ends.length === clients && ends.every((end) => end.readWhenStopped !== null), 10_000);
    // The clients' frames have time to reach the server's kernel meanwhile.
    await sleep(300);

    const readWhileStopped = ends.map((end) => end.socket.bytesRead - (end.readWhenStopped ?? 0));
    const bound = transport === 'tcp' ? 0 : 64 * 1024;
    expect(readWhileStopped.filter((bytes) => bytes > bound)).toEqual([]);
    expect(ends.every((end) => end.frames.length < framesEach)).toBe(true);

    ends.forEach((end) => {
      readAgain(end.socket);
      end.ws.resume();
    });
    await until('every frame taken', () => ends.every((end) => end.frames.length >= framesEach || end.errors.length > 0), 20_000);
    expect(ends.flatMap((end) => end.errors)).toEqual([]);
    const inOrder = Array.from({ length: framesEach }, (_, index) => index);
    ends.forEach((end) => expect(end.frames).toEqual(inOrder));
    sent.forEach((client) => client.terminate());
  });
});
