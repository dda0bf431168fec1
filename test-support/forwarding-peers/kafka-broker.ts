import { createServer, type Server, type Socket } from 'node:net';

/**
 * A Kafka broker stand-in for the forwarding tests (no Kafka can run here): one node on a free
 * port that speaks the part of the Kafka wire protocol a producer needs, in the request versions
 * it advertises (https://kafka.apache.org/protocol): ApiVersions v0-2, Metadata v0-1 (itself as
 * the only broker, every topic with `partitions` partitions), InitProducerId v0 (idempotent
 * producers) and Produce v3 with RecordBatch v2, whose CRC-32C it checks and whose records
 * (key, value, headers) it keeps per topic partition. Compressed batches are refused.
 */

export interface KafkaRecord {
  topic: string;
  partition: number;
  offset: number;
  key: string | null;
  value: string | null;
  headers: Record<string, string>;
  producerId: bigint;
  baseSequence: number;
}

const apiKeys = { produce: 0, metadata: 3, apiVersions: 18, initProducerId: 22 } as const;
const supported: ReadonlyArray<readonly [number, number, number]> = [
  [apiKeys.produce, 3, 3],
  [apiKeys.metadata, 0, 1],
  [apiKeys.apiVersions, 0, 2],
  [apiKeys.initProducerId, 0, 0],
];
const errorCodes = { none: 0, corruptMessage: 2, unsupportedVersion: 35, topicAuthorizationFailed: 29, unsupportedCompressionType: 76 } as const;

// --- CRC-32C (Castagnoli), which RecordBatch v2 uses ----------------------------------------

const crcTable = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) {
      c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    }
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32c(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

// --- Reading and writing the protocol's primitive types ---------------------------------------

class Reader {
  offset = 0;
  constructor(private readonly buffer: Buffer) {}
  int8(): number {
    const value = this.buffer.readInt8(this.offset);
    this.offset += 1;
    return value;
  }
  int16(): number {
    const value = this.buffer.readInt16BE(this.offset);
    this.offset += 2;
    return value;
  }
  int32(): number {
    const value = this.buffer.readInt32BE(this.offset);
    this.offset += 4;
    return value;
  }
  uint32(): number {
    const value = this.buffer.readUInt32BE(this.offset);
    this.offset += 4;
    return value;
  }
  int64(): bigint {
    const value = this.buffer.readBigInt64BE(this.offset);
    this.offset += 8;
    return value;
  }
  bytes(length: number): Buffer {
    const value = this.buffer.subarray(this.offset, this.offset + length);
    if (value.length !== length) {
      throw new Error('truncated');
    }
    this.offset += length;
    return value;
  }
  string(): string | null {
    const length = this.int16();
    return length < 0 ? null : this.bytes(length).toString('utf8');
  }
  /** An unsigned varint, then zigzag-decoded (records use signed varints). */
  varint(): number {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = this.buffer.readUInt8(this.offset);
      this.offset += 1;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) {
        break;
      }
      shift += 7n;
    }
    return Number((result >> 1n) ^ -(result & 1n));
  }
  varBytes(): Buffer | null {
    const length = this.varint();
    return length < 0 ? null : this.bytes(length);
  }
  array<T>(item: () => T): T[] {
    const count = this.int32();
    return Array.from({ length: Math.max(count, 0) }, item);
  }
  get done(): boolean {
    return this.offset >= this.buffer.length;
  }
}

class Writer {
  private readonly parts: Buffer[] = [];
  int8(value: number): this {
    const buffer = Buffer.alloc(1);
    buffer.writeInt8(value);
    return this.raw(buffer);
  }
  int16(value: number): this {
    const buffer = Buffer.alloc(2);
    buffer.writeInt16BE(value);
    return this.raw(buffer);
  }
  int32(value: number): this {
    const buffer = Buffer.alloc(4);
    buffer.writeInt32BE(value);
    return this.raw(buffer);
  }
  int64(value: bigint): this {
    const buffer = Buffer.alloc(8);
    buffer.writeBigInt64BE(value);
    return this.raw(buffer);
  }
  string(value: string | null): this {
    if (value === null) {
      return this.int16(-1);
    }
    const bytes = Buffer.from(value, 'utf8');
    return this.int16(bytes.length).raw(bytes);
  }
  array<T>(items: readonly T[], write: (item: T) => void): this {
    this.int32(items.length);
    items.forEach(write);
    return this;
  }
  raw(buffer: Buffer): this {
    this.parts.push(buffer);
    return this;
  }
  build(): Buffer {
    return Buffer.concat(this.parts);
  }
}

// --- RecordBatch v2 ---------------------------------------------------------------------------

interface DecodedBatch {
  producerId: bigint;
  baseSequence: number;
  records: Array<Pick<KafkaRecord, 'key' | 'value' | 'headers'>>;
}

/** Decodes the batches of a record set; throws `corrupt` on a bad CRC or magic, `compressed` on compression. */
export function decodeRecordBatches(recordSet: Buffer): DecodedBatch[] {
  const batches: DecodedBatch[] = [];
  const reader = new Reader(recordSet);
  while (!reader.done) {
    reader.int64(); // baseOffset
    const batchLength = reader.int32();
    const batch = new Reader(reader.bytes(batchLength));
    batch.int32(); // partitionLeaderEpoch
    if (batch.int8() !== 2) {
      throw new Error('corrupt: not a RecordBatch v2');
    }
    const crc = batch.uint32();
    const checked = batch.bytes(batchLength - batch.offset);
    if (crc32c(checked) !== crc) {
      throw new Error('corrupt: CRC-32C mismatch');
    }
    const body = new Reader(checked);
    const attributes = body.int16();
    if ((attributes & 0x07) !== 0) {
      throw new Error('compressed');
    }
    body.int32(); // lastOffsetDelta
    body.int64(); // baseTimestamp
    body.int64(); // maxTimestamp
    const producerId = body.int64();
    body.int16(); // producerEpoch
    const baseSequence = body.int32();
    const records = body.array(() => {
      const length = body.varint();
      const record = new Reader(body.bytes(length));
      record.int8(); // attributes
      record.varint(); // timestampDelta
      record.varint(); // offsetDelta
      const key = record.varBytes();
      const value = record.varBytes();
      const headers: Record<string, string> = {};
      const headerCount = record.varint();
      for (let index = 0; index < headerCount; index += 1) {
        const name = record.varBytes()?.toString('utf8') ?? '';
        headers[name] = record.varBytes()?.toString('utf8') ?? '';
      }
      return { key: key?.toString('utf8') ?? null, value: value?.toString('utf8') ?? null, headers };
    });
    batches.push({ producerId, baseSequence, records });
  }
  return batches;
}

// --- The broker ---------------------------------------------------------------------------------

export interface FakeKafkaBroker {
  host: string;
  port: number;
  /** Every record taken, in the order taken (per partition, in offset order). */
  records: KafkaRecord[];
  /** Produce requests answered with TOPIC_AUTHORIZATION_FAILED while true. */
  refuseProduce: boolean;
  /** Connections accepted so far. */
  connections: number;
  close(): Promise<void>;
}

export async function startFakeKafkaBroker(options: { partitions: number; advertisedHost?: string }): Promise<FakeKafkaBroker> {
  const sockets = new Set<Socket>();
  const offsets = new Map<string, number>();
  let nextProducerId = 1000n;

  function answer(apiKey: number, apiVersion: number, body: Reader): Buffer {
    const out = new Writer();
    switch (apiKey) {
      case apiKeys.apiVersions: {
        out.int16(apiVersion > 2 ? errorCodes.unsupportedVersion : errorCodes.none);
        out.array(supported, ([key, min, max]) => out.int16(key).int16(min).int16(max));
        if (apiVersion >= 1) {
          out.int32(0);
        }
        return out.build();
      }
      case apiKeys.metadata: {
        const asked = body.array(() => body.string() ?? '');
        const topics = asked.length > 0 ? asked : [...new Set([...offsets.keys()].map((key) => key.replace(/:\d+$/, '')))];
        out.array([0], (nodeId) => {
          out
            .int32(nodeId)
            .string(options.advertisedHost ?? broker.host)
            .int32(broker.port);
          if (apiVersion >= 1) {
            out.string(null);
          }
        });
        if (apiVersion >= 1) {
          out.int32(0);
        }
        out.array(topics, (topic) => {
          out.int16(errorCodes.none).string(topic);
          if (apiVersion >= 1) {
            out.int8(0);
          }
          out.array(
            Array.from({ length: options.partitions }, (_, index) => index),
            (partition) => {
              out.int16(errorCodes.none).int32(partition).int32(0);
              out.array([0], (replica) => out.int32(replica));
              out.array([0], (replica) => out.int32(replica));
            },
          );
        });
        return out.build();
      }
      case apiKeys.initProducerId: {
        body.string();
        body.int32();
        nextProducerId += 1n;
        return out.int32(0).int16(errorCodes.none).int64(nextProducerId).int16(0).build();
      }
      case apiKeys.produce: {
        body.string(); // transactionalId
        body.int16(); // acks
        body.int32(); // timeout
        const topics = body.array(() => ({
          topic: body.string() ?? '',
          partitions: body.array(() => ({ partition: body.int32(), recordSet: body.bytes(body.int32()) })),
        }));
        out.array(topics, ({ topic, partitions }) => {
          out.string(topic);
          out.array(partitions, ({ partition, recordSet }) => {
            const key = `${topic}:${partition}`;
            const base = offsets.get(key) ?? 0;
            let error: number = errorCodes.none;
            if (broker.refuseProduce) {
              error = errorCodes.topicAuthorizationFailed;
            } else {
              try {
                let offset = base;
                for (const batch of decodeRecordBatches(recordSet)) {
                  for (const record of batch.records) {
                    broker.records.push({ topic, partition, offset, ...record, producerId: batch.producerId, baseSequence: batch.baseSequence });
                    offset += 1;
                  }
                }
                offsets.set(key, offset);
              } catch (decodeError) {
                error = (decodeError as Error).message === 'compressed' ? errorCodes.unsupportedCompressionType : errorCodes.corruptMessage;
              }
            }
            out
              .int32(partition)
              .int16(error)
              .int64(BigInt(error === errorCodes.none ? base : -1))
              .int64(-1n);
          });
        });
        return out.int32(0).build();
      }
      default:
        throw new Error(`api key ${apiKey} is not served`);
    }
  }

  function serve(socket: Socket): void {
    broker.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4) {
        const size = pending.readInt32BE(0);
        if (pending.length < 4 + size) {
          return;
        }
        const request = new Reader(pending.subarray(4, 4 + size));
        pending = pending.subarray(4 + size);
        const apiKey = request.int16();
        const apiVersion = request.int16();
        const correlationId = request.int32();
        request.string(); // clientId
        let body: Buffer;
        try {
          body = answer(apiKey, apiVersion, request);
        } catch {
          socket.destroy();
          return;
        }
        const frame = Buffer.alloc(8);
        frame.writeInt32BE(4 + body.length, 0);
        frame.writeInt32BE(correlationId, 4);
        socket.write(Buffer.concat([frame, body]));
      }
    });
  }

  const server: Server = createServer(serve);
  const broker: FakeKafkaBroker = {
    host: '127.0.0.1',
    port: 0,
    records: [],
    refuseProduce: false,
    connections: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) {
          socket.destroy();
        }
        server.close(() => resolve());
      }),
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  broker.port = (server.address() as { port: number }).port;
  return broker;
}
