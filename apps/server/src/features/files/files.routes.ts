import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  deleteFilesResponseSchema,
  errorResponseSchema,
  fileIdParamsSchema,
  myFilesResponseSchema,
  previewQuerySchema,
  renameFileRequestSchema,
  renameFileResponseSchema,
  uploadFileResponseSchema,
} from '@inkwell/contract';
import { abortOnDisconnect } from '../../lib/abort-on-disconnect';
import { badRequest } from '../../lib/http-error';
import { firstFormFile } from '../../lib/multipart-form';
import { requireUser } from '../../plugins/auth';
import { contentDisposition } from './file-names';
import * as files from './files.service';
import { startReservationSweeper, sweepOrphans } from './files.sweep';
import { uploadFile } from './files.upload';
import { UPLOAD_STREAM_BUFFER_BYTES } from './upload-guard';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema };
const tags = ['files'];
const security = [{ bearer: [] }];
/** The multipart parser's own buffers, sized like the rest of the upload path (see the guard). */
const multipartBuffers = {
  highWaterMark: UPLOAD_STREAM_BUFFER_BYTES,
  fileHwm: UPLOAD_STREAM_BUFFER_BYTES,
};

export async function filesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps: files.FilesDeps = { db: app.db, dialect: app.dialect, storage: app.storage };
  const auth = { onRequest: app.authenticate };
  const byId = { tags, security, params: fileIdParamsSchema };

  let stopSweeper: (() => void) | undefined;
  app.addHook('onReady', async () => {
    try {
      const swept = await sweepOrphans(deps);
      if (Object.values(swept).some((n) => n > 0)) app.log.warn(swept, 'files: removed orphans');
    } catch (err) {
      app.log.error({ err }, 'files: orphan sweep failed');
    }
    // Uploads that die while the servers run (a killed server, shared storage) free their quota
    // within the lease, not only at the next start-up.
    stopSweeper = startReservationSweeper(deps, {
      swept: (count) => app.log.warn({ count }, 'files: removed dead upload reservations'),
      failed: (err) => app.log.error({ err }, 'files: reservation sweep failed'),
    });
  });
  app.addHook('onClose', async () => stopSweeper?.());

  app.post(
    '/api/upload_file',
    {
      ...auth,
      schema: {
        tags,
        security,
        consumes: ['multipart/form-data'],
        response: {
          201: uploadFileResponseSchema,
          413: errorResponseSchema,
          415: errorResponseSchema,
          503: errorResponseSchema, // the S3 store failed (storage.ts StorageUnavailableError)
          507: errorResponseSchema, // no room: nothing was stored
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const part = request.isMultipart()
        ? await firstFormFile(request, multipartBuffers)
        : undefined;
      if (!part) throw badRequest('No file uploaded');
      const length = Number(request.headers['content-length']);
      const result = await uploadFile(deps, user.id, {
        filename: part.filename,
        file: part.file,
        contentLength: Number.isFinite(length) && length > 0 ? length : undefined,
      });
      app.metrics.uploads.inc();
      // Searchable seconds after the upload: indexed now, off this request (features/documents/knowledge).
      app.knowledge.add(result.file.id, user.id);
      return reply.code(201).send({ ...result, file: { ...result.file, search: 'reading' } });
    },
  );

  app.get(
    '/api/my_files',
    { ...auth, schema: { tags, security, response: { 200: myFilesResponseSchema, ...errors } } },
    async (request) => files.listFiles(deps, requireUser(request).id),
  );

  const previewSchema = { ...byId, querystring: previewQuerySchema };
  app.get('/api/preview_file/:id', { ...auth, schema: previewSchema }, async (request, reply) => {
    const asText = request.query.format === 'text';
    const preview = await files.previewFile(
      deps,
      requireUser(request).id,
      request.params.id,
      asText,
      abortOnDisconnect(reply),
    );
    if (preview.kind === 'json') return reply.send(preview.body);
    return reply
      .type('application/pdf')
      .header('content-disposition', contentDisposition('inline', preview.file.file_name))
      .send(preview.stream);
  });

  app.get('/api/download_file/:id', { ...auth, schema: byId }, async (request, reply) => {
    const { file, stream } = await files.openDownload(
      deps,
      requireUser(request).id,
      request.params.id,
    );
    return reply
      .type('application/octet-stream')
      .header('content-length', String(file.size))
      .header('content-disposition', contentDisposition('attachment', file.file_name))
      .send(stream);
  });

  app.patch(
    '/api/rename_file/:id',
    {
      ...auth,
      schema: {
        ...byId,
        body: renameFileRequestSchema,
        response: { 200: renameFileResponseSchema, 409: errorResponseSchema, ...errors },
      },
    },
    async (request) =>
      files.renameFile(deps, requireUser(request).id, request.params.id, request.body.new_name),
  );

  app.delete(
    '/api/delete_file/:id',
    { ...auth, schema: { ...byId, response: { 200: deleteFilesResponseSchema, ...errors } } },
    async (request) => files.deleteFile(deps, requireUser(request).id, request.params.id),
  );

  app.delete(
    '/api/delete_all_files',
    {
      ...auth,
      schema: { tags, security, response: { 200: deleteFilesResponseSchema, ...errors } },
    },
    async (request) => files.deleteAllFiles(deps, requireUser(request).id),
  );
}
