import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileLimits } from '../../contracts/file';
import { limits } from '../../contracts/limits';
import { systemActor } from '../../graph/common/context';
import { write } from '../../graph/common/write';
import { createServices } from '../../graph/services';
import { testApp, testSecrets, type TestApp } from '../../test-support/app';
import { anOrganization, buildDevice, buildSession } from '../../test-support/factories';
import { fakeS3, type FakeS3 } from '../../test-support/fake-s3';
import { startFileSweep } from '../file-sweep';

const megabyte = 1024 * 1024;
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG of `size` bytes: its magic, then zeros. */
function pngOf(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  png.copy(bytes);
  return bytes;
}

function dataUrl(type: string, bytes: Buffer): string {
  return `data:${type};base64,${bytes.toString('base64')}`;
}

/** POST /console/v1/file/upload with a body written out as text (large bodies are not built as objects twice). */
function upload(t: TestApp, cookie: string, url: string, name = 'file.png') {
  return t.app.inject({
    method: 'POST',
    url: '/console/v1/file/upload',
    headers: { cookie, 'content-type': 'application/json' },
    payload: `{"dataUrl":"${url}","name":${JSON.stringify(name)}}`,
  });
}

describe('files', () => {
  let t: TestApp;
  let admin: string;
  let ops: string;
  let developer: string;

  beforeAll(async () => {
    t = await testApp();
    admin = await t.signIn(['gridport.admin']);
    ops = await t.signIn(['gridport.ops']);
    developer = await t.signIn(['gridport.developer']);
  });

  afterAll(async () => {
    await t.close();
  });

  it('keeps an upload and gives it back with its type, its name and nosniff', async () => {
    const bytes = pngOf(2048);
    const response = await upload(t, developer, dataUrl('image/png', bytes), 'Zählerschrank "links".png');
    expect(response.statusCode).toBe(200);
    const body = response.json() as { url: string; fileIdentifier: string };
    expect(body).toEqual({ url: `/console/v1/file/${body.fileIdentifier}`, fileIdentifier: expect.stringMatching(/^[0-9a-f-]{36}$/) });

    const read = await t.app.inject({ method: 'GET', url: body.url, headers: { cookie: developer } });
    expect(read.statusCode).toBe(200);
    expect(read.rawPayload.equals(bytes)).toBe(true);
    expect(read.headers['content-type']).toBe('image/png');
    expect(read.headers['x-content-type-options']).toBe('nosniff');
    expect(read.headers['content-disposition']).toBe(`inline; filename="Z_hlerschrank _links_.png"; filename*=UTF-8''Z%C3%A4hlerschrank%20%22links%22.png`);
    const row = (await t.database.db('files').where('identifier', body.fileIdentifier).first('storage', 'size', 'issue_message_id', 'name')) as {
      size: unknown;
    };
    expect({ ...row, size: Number(row.size) }).toEqual({ storage: 'database', size: 2048, issue_message_id: null, name: 'Zählerschrank "links".png' });
  });

  it('takes plain text, CSV, JSON and PDF, and sends text as an attachment', async () => {
    for (const [type, content] of [
      ['text/plain', Buffer.from('a note\n')],
      ['text/csv', Buffer.from('at,power\n2026-11-24T00:00:00Z,12\n')],
      ['application/json', Buffer.from('{"power":12}')],
      ['application/pdf', Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')],
    ] as const) {
      const response = await upload(t, ops, dataUrl(type, content), `file.${type.split('/')[1] ?? 'bin'}`);
      expect({ type, status: response.statusCode }).toEqual({ type, status: 200 });
      const read = await t.app.inject({ method: 'GET', url: (response.json() as { url: string }).url, headers: { cookie: ops } });
      expect(read.headers['content-type']).toBe(type === 'application/pdf' ? type : `${type}; charset=utf-8`);
      expect(read.headers['content-disposition']).toMatch(type === 'application/pdf' ? /^inline;/ : /^attachment;/);
    }
  });

  describe('the limits by role (Admin 100 MB, Ops 50, Developer 10, others 0)', () => {
    it('lets a developer upload 10 MB and refuses one byte more with file_too_large', async () => {
      expect((await upload(t, developer, dataUrl('image/png', pngOf(10 * megabyte)))).statusCode).toBe(200);
      const over = await upload(t, developer, dataUrl('image/png', pngOf(10 * megabyte + 1)));
      expect({ status: over.statusCode, body: over.json() as unknown }).toEqual({
        status: 413,
        body: { key: 'file_too_large', details: { size: 10 * megabyte + 1, limit: 10 * megabyte } },
      });
    });

    it('lets ops upload more than the 25 MB every other route takes, and refuses 50 MB and one byte', async () => {
      expect((await upload(t, ops, dataUrl('image/png', pngOf(30 * megabyte)))).statusCode).toBe(200);
      const over = await upload(t, ops, dataUrl('image/png', pngOf(50 * megabyte + 1)));
      expect({ status: over.statusCode, key: (over.json() as { key: string }).key }).toEqual({ status: 413, key: 'file_too_large' });
    });

    it('refuses an admin 100 MB and one byte with file_too_large', async () => {
      const over = await upload(t, admin, dataUrl('image/png', pngOf(100 * megabyte + 1)));
      expect({ status: over.statusCode, body: over.json() as unknown }).toEqual({
        status: 413,
        body: { key: 'file_too_large', details: { size: 100 * megabyte + 1, limit: 100 * megabyte } },
      });
    });

    it('lets an admin upload 60 MB (more than ops may)', async () => {
      expect((await upload(t, admin, dataUrl('image/png', pngOf(60 * megabyte)))).statusCode).toBe(200);
    });

    it('refuses every upload to customers, sales and employees, however small', async () => {
      const organization = await anOrganization(t.services);
      for (const rights of [['customer.write'], ['customer.read'], ['gridport.sales'], ['gridport.employee']] as const) {
        const cookie = await t.signIn([...rights], rights[0].startsWith('customer') ? organization.hashId : undefined);
        const response = await upload(t, cookie, dataUrl('text/plain', Buffer.from('hello')), 'hello.txt');
        expect({ rights, status: response.statusCode, body: response.json() as unknown }).toEqual({
          rights,
          status: 413,
          body: { key: 'file_too_large', details: { size: 5, limit: 0 } },
        });
      }
    });

    it('refuses a body larger than the caller may upload by its Content-Length, before reading it', async () => {
      const customer = await t.signIn(['customer.write'], (await anOrganization(t.services)).hashId);
      const response = await upload(t, customer, dataUrl('image/png', pngOf(megabyte)));
      expect({ status: response.statusCode, body: response.json() as unknown }).toEqual({
        status: 413,
        body: { key: 'file_too_large', details: { limit: 0 } },
      });
    });

    it('keeps the 25 MB body limit on every other route', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/console-admin/v1/mail',
        headers: { cookie: ops, 'content-type': 'application/json' },
        payload: `{"to":["a@example.com"],"subject":"big","text":"${'a'.repeat(limits.payloadBytes)}"}`,
      });
      expect({ status: response.statusCode, key: (response.json() as { key: string }).key }).toEqual({ status: 413, key: 'payload_too_large' });
      expect(fileLimits.uploadBodyBytes).toBeGreaterThan(limits.payloadBytes);
    });
  });

  describe('types', () => {
    it.each([
      ['an SVG image', 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
      ['HTML', 'text/html', Buffer.from('<script>alert(1)</script>')],
      ['a PDF declared as a PNG', 'image/png', Buffer.from('%PDF-1.7\n')],
      ['text declared as a JPEG', 'image/jpeg', Buffer.from('not a jpeg')],
      ['a PNG declared as plain text', 'text/plain', pngOf(64)],
      ['binary bytes declared as CSV', 'text/csv', Buffer.from([0x61, 0x00, 0x62])],
    ])('refuses %s with filetype_not_allowed', async (_what, type, bytes) => {
      const response = await upload(t, developer, dataUrl(type, bytes), 'file');
      expect({ status: response.statusCode, key: (response.json() as { key: string }).key }).toEqual({ status: 400, key: 'filetype_not_allowed' });
    });

    it.each([
      ['text that is not a data URL', 'https://example.com/a.png'],
      ['base64 that does not decode', 'data:image/png;base64,iVBORw0KGgo*'],
      ['base64 of the wrong length', 'data:image/png;base64,iVBORw0KGg'],
      ['an empty file', 'data:text/plain;base64,'],
      ['JSON that does not parse', dataUrl('application/json', Buffer.from('{"power":'))],
      ['text that is not UTF-8', dataUrl('text/plain', Buffer.from([0xc3, 0x28]))],
      ['a percent-escape that does not decode', 'data:text/plain,%E0%A4%A'],
    ])('refuses %s with file_invalid', async (_what, url) => {
      const response = await upload(t, developer, url, 'file');
      expect({ status: response.statusCode, key: (response.json() as { key: string }).key }).toEqual({ status: 400, key: 'file_invalid' });
    });

    it('refuses a name longer than 255 characters with payload_invalid', async () => {
      const response = await upload(t, developer, dataUrl('text/plain', Buffer.from('x')), 'n'.repeat(256));
      expect({ status: response.statusCode, key: (response.json() as { key: string }).key }).toEqual({ status: 400, key: 'payload_invalid' });
    });
  });

  describe('who may read a file', () => {
    it('lets the uploader and staff read it; a customer only once it is on a message of an issue they may see', async () => {
      const uploader = await buildSession(t.services, { rights: ['gridport.ops'] });
      const uploaded = (await upload(t, uploader.cookie, dataUrl('text/plain', Buffer.from('meter photo note')), 'note.txt')).json() as {
        url: string;
        fileIdentifier: string;
      };
      const owner = await anOrganization(t.services);
      const stranger = await anOrganization(t.services);
      const customer = await t.signIn(['customer.read'], owner.hashId);
      const outsider = await t.signIn(['customer.read'], stranger.hashId);
      const read = async (cookie: string) => {
        const response = await t.app.inject({ method: 'GET', url: uploaded.url, headers: { cookie } });
        return response.statusCode === 200 ? response.payload : (response.json() as { key: string }).key;
      };

      expect(await read(uploader.cookie)).toBe('meter photo note');
      expect(await read(await t.signIn(['gridport.employee']))).toBe('meter photo note');
      expect(await read(customer)).toBe('not_found');

      const device = await buildDevice(t.services, { organizationHashId: owner.hashId });
      const message = await write(t.database.db, systemActor('test'), async (w) => {
        const issue = await t.services.issueJournal.open(w, { title: 'Broken meter', source: 'user', organizationId: owner.id, deviceId: device.id });
        const added = await t.services.issueJournal.addMessage(w, issue.id, { source: 'user', message: 'See the note', userId: uploader.user.id });
        await t.services.files.attach(w.trx, uploader.user.id, [uploaded.fileIdentifier], added.id);
        return added;
      });
      expect(await read(customer)).toBe('meter photo note');
      expect(await read(outsider)).toBe('not_found');

      await t.database.db('issue_messages').where('id', message.id).update({ is_internal: true });
      expect(await read(customer)).toBe('not_found');
      expect(await read(uploader.cookie)).toBe('meter photo note');
    });

    it('answers not_found for an unknown identifier and for one that is not a uuid', async () => {
      for (const identifier of ['00000000-0000-4000-8000-000000000000', 'not-a-file']) {
        const response = await t.app.inject({ method: 'GET', url: `/console/v1/file/${identifier}`, headers: { cookie: developer } });
        expect({ status: response.statusCode, key: (response.json() as { key: string }).key }).toEqual({ status: 404, key: 'not_found' });
      }
    });

    it('refuses nobody with unauthorized', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/console/v1/file/00000000-0000-4000-8000-000000000000' });
      expect({ status: response.statusCode, key: (response.json() as { key: string }).key }).toEqual({ status: 401, key: 'unauthorized' });
    });
  });

  describe('attaching uploads to a message', () => {
    async function newMessage(userId: number): Promise<number> {
      return write(t.database.db, systemActor('test'), async (w) => {
        const issue = await t.services.issueJournal.open(w, { title: 'Files', source: 'user', organizationId: null });
        return (await t.services.issueJournal.addMessage(w, issue.id, { source: 'user', message: 'with files', userId })).id;
      });
    }
    async function uploads(cookie: string, count: number): Promise<string[]> {
      const identifiers: string[] = [];
      for (let index = 0; index < count; index += 1) {
        identifiers.push(
          ((await upload(t, cookie, dataUrl('text/plain', Buffer.from(`file ${index}`)), `${index}.txt`)).json() as { fileIdentifier: string }).fileIdentifier,
        );
      }
      return identifiers;
    }
    const attach = (userId: number, identifiers: string[], messageId: number) =>
      write(t.database.db, systemActor('test'), (w) => t.services.files.attach(w.trx, userId, identifiers, messageId));

    it('attaches the uploader’s temporary files, which then belong to the message', async () => {
      const session = await buildSession(t.services, { rights: ['gridport.ops'] });
      const identifiers = await uploads(session.cookie, 2);
      const messageId = await newMessage(session.user.id);
      const attached = await attach(session.user.id, identifiers, messageId);
      expect(attached.map((file) => file.name)).toEqual(['0.txt', '1.txt']);
      expect((await t.services.files.ofMessages(t.database.db, [messageId])).get(messageId)?.map((file) => file.fileIdentifier)).toEqual(identifiers);
    });

    it('refuses a file that is not a temporary upload of the user with no_temp_file_found, attaching none', async () => {
      const session = await buildSession(t.services, { rights: ['gridport.ops'] });
      const other = await buildSession(t.services, { rights: ['gridport.ops'] });
      const [mine = '', theirs = ''] = [...(await uploads(session.cookie, 1)), ...(await uploads(other.cookie, 1))];
      const messageId = await newMessage(session.user.id);
      for (const wrong of [theirs, '00000000-0000-4000-8000-000000000000', 'nonsense']) {
        await expect(attach(session.user.id, [mine, wrong], messageId)).rejects.toMatchObject({
          key: 'no_temp_file_found',
          details: { fileIdentifiers: [wrong] },
        });
      }
      expect(await t.database.db('files').where('identifier', mine).first('issue_message_id')).toEqual({ issue_message_id: null });
      await attach(session.user.id, [mine], messageId);
      await expect(attach(session.user.id, [mine], await newMessage(session.user.id))).rejects.toMatchObject({ key: 'no_temp_file_found' });
    });

    it('refuses more than 10 files on a message with too_many_files', async () => {
      const session = await buildSession(t.services, { rights: ['gridport.ops'] });
      const identifiers = await uploads(session.cookie, 11);
      const messageId = await newMessage(session.user.id);
      await expect(attach(session.user.id, identifiers, messageId)).rejects.toMatchObject({ key: 'too_many_files', details: { count: 11, max: 10 } });
      await attach(session.user.id, identifiers.slice(0, 10), messageId);
      await expect(attach(session.user.id, identifiers.slice(10), messageId)).rejects.toMatchObject({ key: 'too_many_files' });
    });
  });
});

describe('files in the data folder', () => {
  it('keeps the bytes as a file of the folder, not in the database, and reads them back', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'gridport-files-'));
    const t = await testApp({}, { files: { storage: 'folder', folder } });
    try {
      const cookie = await t.signIn(['gridport.developer']);
      const bytes = pngOf(4096);
      const uploaded = (await upload(t, cookie, dataUrl('image/png', bytes))).json() as { url: string; fileIdentifier: string };
      expect(readFileSync(path.join(folder, uploaded.fileIdentifier)).equals(bytes)).toBe(true);
      expect(existsSync(path.join(folder, `${uploaded.fileIdentifier}.partial`))).toBe(false);
      expect(await t.database.db('files').where('identifier', uploaded.fileIdentifier).first('storage', 'content', 'storage_key')).toEqual({
        storage: 'folder',
        content: null,
        storage_key: uploaded.fileIdentifier,
      });
      const read = await t.app.inject({ method: 'GET', url: uploaded.url, headers: { cookie } });
      expect({ status: read.statusCode, same: read.rawPayload.equals(bytes), length: read.headers['content-length'] }).toEqual({
        status: 200,
        same: true,
        length: '4096',
      });
    } finally {
      await t.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('temporary uploads that no message takes', () => {
  it('are removed with their bytes after 24 hours; attached and newer ones stay', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'gridport-files-'));
    const t = await testApp({}, { files: { storage: 'folder', folder } });
    try {
      const session = await buildSession(t.services, { rights: ['gridport.ops'] });
      const identifiers: string[] = [];
      for (const name of ['stale.txt', 'attached.txt', 'fresh.txt']) {
        identifiers.push(
          ((await upload(t, session.cookie, dataUrl('text/plain', Buffer.from(name)), name)).json() as { fileIdentifier: string }).fileIdentifier,
        );
      }
      const [stale = '', attached = '', fresh = ''] = identifiers;
      await write(t.database.db, systemActor('test'), async (w) => {
        const issue = await t.services.issueJournal.open(w, { title: 'Kept', source: 'user', organizationId: null });
        const message = await t.services.issueJournal.addMessage(w, issue.id, { source: 'user', message: 'with a file', userId: session.user.id });
        await t.services.files.attach(w.trx, session.user.id, [attached], message.id);
      });
      await t.database
        .db('files')
        .whereIn('identifier', [stale, attached])
        .update({ created_at: new Date(Date.now() - 25 * 3_600_000) });

      const sweep = startFileSweep(t.services.files, t.logs.log);
      for (let attempt = 0; attempt < 200 && (await t.database.db('files').where('identifier', stale).first('id')) !== undefined; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await sweep.close();

      expect((await t.database.db('files').orderBy('id').select('identifier')).map((row: { identifier: string }) => row.identifier)).toEqual([attached, fresh]);
      expect([stale, attached, fresh].map((identifier) => existsSync(path.join(folder, identifier)))).toEqual([false, true, true]);
      expect(t.logs.lines.filter((line) => line.msg === 'removed temporary uploads that no message took')).toEqual([expect.objectContaining({ removed: 1 })]);
      expect(await t.services.files.removeStaleUploads(new Date())).toBe(1);
      expect(existsSync(path.join(folder, fresh))).toBe(false);
    } finally {
      await t.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('files in an S3-compatible store', () => {
  let s3: FakeS3;

  beforeAll(async () => {
    s3 = await fakeS3();
  });

  afterAll(async () => {
    await s3.close();
  });

  it('puts the bytes as an object signed with SigV4 and reads them back', async () => {
    const t = await testApp({}, { files: { storage: 's3', s3: s3.settings() } });
    try {
      const cookie = await t.signIn(['gridport.ops']);
      const bytes = Buffer.from('%PDF-1.7\nthe commissioning report\n');
      const uploaded = (await upload(t, cookie, dataUrl('application/pdf', bytes), 'report.pdf')).json() as { url: string; fileIdentifier: string };
      expect(s3.requests.at(-1)).toEqual({ method: 'PUT', path: `/${s3.bucket}/${uploaded.fileIdentifier}`, error: null });
      expect(s3.objects.get(uploaded.fileIdentifier)).toEqual({ body: bytes, contentType: 'application/pdf' });
      expect(await t.database.db('files').where('identifier', uploaded.fileIdentifier).first('storage', 'content', 'storage_key')).toEqual({
        storage: 's3',
        content: null,
        storage_key: uploaded.fileIdentifier,
      });
      const read = await t.app.inject({ method: 'GET', url: uploaded.url, headers: { cookie } });
      expect({ status: read.statusCode, type: read.headers['content-type'], same: read.rawPayload.equals(bytes) }).toEqual({
        status: 200,
        type: 'application/pdf',
        same: true,
      });
      expect(s3.requests.at(-1)).toEqual({ method: 'GET', path: `/${s3.bucket}/${uploaded.fileIdentifier}`, error: null });

      s3.objects.delete(uploaded.fileIdentifier);
      const missing = await t.app.inject({ method: 'GET', url: uploaded.url, headers: { cookie } });
      expect({ status: missing.statusCode, key: (missing.json() as { key: string }).key }).toEqual({ status: 404, key: 'not_found' });
    } finally {
      await t.close();
    }
  });

  it('answers service_unavailable, keeping no file, when the store refuses the signature or cannot be reached', async () => {
    for (const [settings, reason] of [
      [s3.settings({ secretAccessKey: 'not-the-secret' }), 'the file store refused to keep the file (403 SignatureDoesNotMatch)'],
      [s3.settings({ accessKeyId: 'SOMEONEELSE' }), 'the file store refused to keep the file (403 InvalidAccessKeyId)'],
      [s3.settings({ bucket: 'another-bucket' }), 'the file store refused to keep the file (404 NoSuchBucket)'],
      [s3.settings({ endpoint: 'http://127.0.0.1:1' }), 'the file store could not be reached'],
    ] as const) {
      const t = await testApp({}, { files: { storage: 's3', s3: settings } });
      try {
        const response = await upload(t, await t.signIn(['gridport.ops']), dataUrl('text/plain', Buffer.from('x')), 'x.txt');
        expect({ status: response.statusCode, body: response.json() as unknown }).toEqual({
          status: 503,
          body: { key: 'service_unavailable', details: { reason } },
        });
        expect(Number((await t.database.db('files').count({ count: '*' }).first())?.count)).toBe(0);
      } finally {
        await t.close();
      }
    }
  });

  it('answers service_unavailable for a file kept in a store this server is not configured for', async () => {
    const t = await testApp({}, { files: { storage: 's3', s3: s3.settings() } });
    try {
      const cookie = await t.signIn(['gridport.ops']);
      const uploaded = (await upload(t, cookie, dataUrl('text/plain', Buffer.from('kept in s3')), 'kept.txt')).json() as { fileIdentifier: string };
      const elsewhere = createServices({
        db: t.database.db,
        hashIds: t.hashIds,
        sessionSecret: testSecrets.sessionSecret,
        encryptionKey: testSecrets.encryptionKey,
      });
      await expect(elsewhere.files.read(systemActor('test'), uploaded.fileIdentifier)).rejects.toMatchObject({
        key: 'service_unavailable',
        details: { reason: 'the file is kept in s3, which this server is not configured for' },
      });
    } finally {
      await t.close();
    }
  });
});
