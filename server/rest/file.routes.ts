import type { FastifyInstance } from 'fastify';
import { GridportError } from '../../contracts/errors';
import { fileIdentifierParams, fileLimits, fileUploadedSchema, fileUploadSchema, uploadLimitBytes } from '../../contracts/file';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

/** RFC 6266: an ASCII fallback name and the exact one in UTF-8 (RFC 8187). */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

/** Files of issue messages (console.md section 7): upload as a data URL, read back by identifier. */
export function fileRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'POST',
    url: '/console/v1/file/upload',
    summary: 'Upload a file (a data URL) to attach to an issue message; answers where to read it',
    tags: ['file'],
    ...access('file.upload'),
    body: fileUploadSchema,
    response: fileUploadedSchema,
    // The largest file (Admin, 100 MB) in base64, for this route alone.
    bodyLimit: fileLimits.uploadBodyBytes,
    // A body that announces more than the caller may upload is refused before it is read.
    beforeBody: async (request) => {
      const announced = Number(request.headers['content-length']);
      const limit = uploadLimitBytes(request.actor.rights);
      if (Number.isFinite(announced) && announced > Math.ceil(limit / 3) * 4 + 64 * 1024) {
        throw new GridportError('file_too_large', { limit });
      }
    },
    handler: ({ actor, body }) => services.files.upload(actor, body),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: '/console/v1/file/:fileIdentifier',
    summary: 'Read a file: the uploader, staff, and customers who may see the issue message it is attached to',
    tags: ['file'],
    ...access('file.read'),
    params: fileIdentifierParams,
    handler: async ({ actor, params, reply }) => {
      const file = await services.files.read(actor, params.fileIdentifier);
      const inline = file.contentType.startsWith('image/') || file.contentType === 'application/pdf';
      // Text was checked to be UTF-8 at upload; saying so keeps a browser from guessing.
      const text = file.contentType.startsWith('text/') || file.contentType === 'application/json';
      return reply
        .code(200)
        .header('content-type', text ? `${file.contentType}; charset=utf-8` : file.contentType)
        .header('content-length', String(file.size))
        .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', file.name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=0, must-revalidate')
        .send(file.body);
    },
  });
}
