import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Data,
  IdParams,
  LogoConfig,
  Ok,
  Page,
  SysConfig,
  SysConfigInput,
  SysConfigQuery,
} from '@kilowatch/contract';
import { errors } from '../shared.ts';
import type { SysConfigService } from './service.ts';

const tags = ['system'];
const config = { resource: '/sys_config' };
const LOGO_RULE =
  'For identifier systemSetting the value must be JSON {"img", "show"}: img empty, an http(s) address or a base64 data URL (image/png, image/jpeg, image/svg+xml, image/webp) of at most 256 KB; show a boolean.';

/** /api/sysconfigs (/sys_config) and the public logo. */
export const sysConfigRoutes: FastifyPluginAsyncTypebox<{ service: SysConfigService }> = async (
  app,
  { service },
) => {
  app.get(
    '/sysconfigs/logo',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Logo config (img, show), read by the console at start; no token needed',
        response: { 200: Data(LogoConfig), ...errors },
      },
    },
    async () => ({ data: await service.logo() }),
  );
  app.get(
    '/sysconfigs',
    {
      config,
      schema: {
        tags,
        summary: 'System settings, paged; identifier filters to one setting (e.g. systemSetting)',
        querystring: SysConfigQuery,
        response: { 200: Data(Page(SysConfig)), ...errors },
      },
    },
    async (request) => ({ data: await service.list(request.query) }),
  );
  app.post(
    '/sysconfigs',
    {
      config,
      schema: {
        tags,
        summary: 'Create a setting (409 when the identifier is taken)',
        description: LOGO_RULE,
        body: SysConfigInput,
        response: { 200: Data(SysConfig), ...errors },
      },
    },
    async (request) => ({ data: await service.create(request.body) }),
  );
  app.put(
    '/sysconfigs/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Change a setting; systemSetting cannot be renamed',
        description: LOGO_RULE,
        params: IdParams,
        body: SysConfigInput,
        response: { 200: Data(SysConfig), ...errors },
      },
    },
    async (request) => ({ data: await service.update(request.params.id, request.body) }),
  );
  app.delete(
    '/sysconfigs/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a setting; systemSetting cannot be deleted (422)',
        params: IdParams,
        response: { 200: Data(Ok), ...errors },
      },
    },
    async (request) => {
      await service.remove(request.params.id);
      return { data: { ok: true as const } };
    },
  );
};
