import type { ErrorCode, Language } from '@kilowatch/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { type MessageKey, type MessageParams, pickLanguage, translate } from '../i18n/index.ts';
import { describeValidationError } from '../i18n/validation.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The answer's language when the request's Accept-Language names none we have. The console
     * sends one; devices send none, and their logs are read by integrators: device routes say 'en'.
     */
    defaultLanguage?: Language;
  }
}

/** The language to answer `request` in: its Accept-Language, else the route's default. */
export const languageOf = (request: FastifyRequest): Language =>
  pickLanguage(request.headers['accept-language'], request.routeOptions.config?.defaultLanguage);

/** Fastify's own 4xx errors, mapped to the catalogue so they read like ours. */
const FASTIFY_ERRORS: Record<string, MessageKey> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
};

const isFastifyError = (error: unknown): error is FastifyError =>
  error instanceof Error && typeof (error as FastifyError).code === 'string';

const send = (
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  message: MessageKey,
  params?: MessageParams,
) =>
  reply
    .status(status)
    // Every error is `{ code, message }`, whatever 4xx body the route declares for its own answers:
    // serialised with the route's schema, a missing field would turn this answer into a 500.
    .type('application/json; charset=utf-8')
    .serializer(JSON.stringify)
    .send({ code, message: translate(languageOf(request), message, params) });

/**
 * The one place errors become responses: `{ code, message }` in the request's language.
 * Bad input is always a 4xx; only the unexpected is a 500, logged with its stack.
 */
export function errorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request, reply) => {
    if (error instanceof AppError) {
      if (error.options.headers) reply.headers(error.options.headers);
      return send(
        request,
        reply,
        error.status,
        error.code,
        error.options.message ?? error.code,
        error.params,
      );
    }
    if (isFastifyError(error) && error.validation?.[0]) {
      const language = languageOf(request);
      const message = describeValidationError(error.validation[0], error.validationContext, language);
      return reply
        .status(400)
        .type('application/json; charset=utf-8')
        .serializer(JSON.stringify)
        .send({ code: 'VALIDATION', message });
    }
    const status = isFastifyError(error) ? (error.statusCode ?? 500) : 500;
    if (status >= 400 && status < 500 && isFastifyError(error)) {
      if (status === 404) return send(request, reply, 404, 'NOT_FOUND', 'NOT_FOUND');
      return send(request, reply, status, 'BAD_REQUEST', FASTIFY_ERRORS[error.code] ?? 'BAD_REQUEST');
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(request, reply, 500, 'INTERNAL', 'INTERNAL');
  });

  app.setNotFoundHandler((request, reply) => send(request, reply, 404, 'NOT_FOUND', 'NOT_FOUND'));
}
