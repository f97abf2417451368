import type {
  NotifyOutboxQuery,
  NotifyRoute,
  NotifyRouteInput,
  NotifyTestResult,
  SmtpSettings,
  SmtpSettingsInput,
} from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/index.ts';
import { AppError } from '../../../errors.ts';
import type { Notifier } from './notifier.ts';
import * as repo from './repository.ts';

export interface NotifySettingsDeps {
  db: Kysely<DB>;
  now: () => number;
  notifier: Pick<Notifier, 'test'>;
}

/** A webhook's answer may take this long unless its route says otherwise, ms. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

const iso = (ms: number) => new Date(ms).toISOString();
const notFound = () => new AppError('NOT_FOUND', 404);

/** What leaves the server of a route: the secret only as set or not. */
const routeOut = ({ secret, ...route }: repo.RouteRecord): NotifyRoute => ({
  ...route,
  secretSet: secret !== '',
});

const smtpOut = ({ password, ...server }: Awaited<ReturnType<typeof repo.smtp>>): SmtpSettings => ({
  ...server,
  passwordSet: password !== '',
});

/** The notification settings of the alarm centre: the SMTP server and the routes. */
export function createNotifySettings(deps: NotifySettingsDeps) {
  const { db, now } = deps;

  /** A route's row from its input; a secret left out keeps `kept`. */
  function routeRow(input: NotifyRouteInput, kept: string): repo.RouteRow {
    if (input.channel === 'webhook' && !input.url) {
      throw new AppError('VALIDATION', 400, {}, { message: 'alarm.notify.urlRequired' });
    }
    if (input.channel === 'email' && (input.recipients ?? []).length === 0) {
      throw new AppError('VALIDATION', 400, {}, { message: 'alarm.notify.recipientsRequired' });
    }
    const webhook = input.channel === 'webhook';
    return {
      name: input.name,
      channel: input.channel,
      severities: input.severities,
      events: input.events,
      url: webhook ? (input.url ?? '') : '',
      secret: webhook ? (input.secret ?? kept) : '',
      timeoutMs: input.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
      recipients: webhook ? [] : (input.recipients ?? []),
      enabled: input.enabled,
    };
  }

  return {
    async getSmtp(): Promise<SmtpSettings> {
      return smtpOut(await repo.smtp(db));
    },

    async setSmtp(input: SmtpSettingsInput): Promise<SmtpSettings> {
      const current = await repo.smtp(db);
      const { password, ...rest } = input;
      await repo.saveSmtp(db, { ...rest, password: password ?? current.password }, iso(now()));
      return this.getSmtp();
    },

    async listRoutes(): Promise<NotifyRoute[]> {
      return (await repo.routes(db)).map(routeOut);
    },

    async createRoute(input: NotifyRouteInput): Promise<NotifyRoute> {
      const id = await repo.insertRoute(db, routeRow(input, ''), iso(now()));
      return routeOut((await repo.findRoute(db, id))!);
    },

    async updateRoute(id: number, input: NotifyRouteInput): Promise<NotifyRoute> {
      const current = await repo.findRoute(db, id);
      if (!current) throw notFound();
      await repo.updateRoute(db, id, routeRow(input, current.secret), iso(now()));
      return routeOut((await repo.findRoute(db, id))!);
    },

    async deleteRoute(id: number): Promise<void> {
      const deleted = await db.transaction().execute((tx) => repo.deleteRoute(tx, id));
      if (!deleted) throw notFound();
    },

    async testRoute(id: number): Promise<NotifyTestResult> {
      const route = await repo.findRoute(db, id);
      if (!route) throw notFound();
      return deps.notifier.test(route);
    },

    /** A test e-mail to `to` through the saved SMTP server, as an e-mail route would send it. */
    testSmtp(to: string): Promise<NotifyTestResult> {
      const at = iso(now());
      return deps.notifier.test({
        id: 0,
        name: 'SMTP',
        channel: 'email',
        severities: ['warning'],
        events: ['raise'],
        url: '',
        secret: '',
        timeoutMs: DEFAULT_WEBHOOK_TIMEOUT_MS,
        recipients: [to],
        enabled: true,
        createdAt: at,
        updatedAt: at,
      });
    },

    async listOutbox(query: NotifyOutboxQuery) {
      const page = query.page ?? 1;
      const pageSize = query.pageSize ?? 10;
      return { ...(await repo.listOutbox(db, { status: query.status, page, pageSize })), page, pageSize };
    },
  };
}

export type NotifySettings = ReturnType<typeof createNotifySettings>;
