import type {
  Language,
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
import { translate } from '../../../i18n/index.ts';
import {
  type AllowList,
  checkUrlHost,
  EMPTY_ALLOW_LIST,
  InternalAddressRefused,
} from '../../../shared/outbound-address.ts';
import type { Notifier, TestOutcome } from './notifier.ts';
import * as repo from './repository.ts';

export interface NotifySettingsDeps {
  db: Kysely<DB>;
  now: () => number;
  notifier: Pick<Notifier, 'test'>;
  /** The internal hosts webhooks may reach (the `webhookAllowedHosts` system setting). */
  allowList?: () => Promise<AllowList>;
}

/** A webhook's answer may take this long unless its route says otherwise, ms. */
const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

const iso = (ms: number) => new Date(ms).toISOString();

/** A test's outcome in the caller's language. */
const testResult = (outcome: TestOutcome, language: Language): NotifyTestResult =>
  outcome.ok
    ? { ok: true, error: null }
    : { ok: false, error: translate(language, outcome.key, outcome.params) };
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
  const allowList = deps.allowList ?? (async () => EMPTY_ALLOW_LIST);

  /**
   * A route's row from its input; a secret left out keeps `kept`. A URL typing an internal address
   * (or localhost) not on the allowed hosts is refused here already; names are checked at each send.
   */
  async function routeRow(input: NotifyRouteInput, kept: string): Promise<repo.RouteRow> {
    if (input.channel === 'webhook' && !input.url) {
      throw new AppError('VALIDATION', 400, {}, { message: 'alarm.notify.urlRequired' });
    }
    if (input.channel === 'webhook' && input.url) {
      let url: URL;
      try {
        url = new URL(input.url);
      } catch {
        throw new AppError('VALIDATION', 400, {}, { message: 'alarm.notify.urlInvalid' });
      }
      try {
        checkUrlHost(url, await allowList());
      } catch (error) {
        if (!(error instanceof InternalAddressRefused)) throw error;
        throw new AppError('VALIDATION', 400, { host: error.host }, { message: 'alarm.notify.urlInternal' });
      }
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
      const id = await repo.insertRoute(db, await routeRow(input, ''), iso(now()));
      return routeOut((await repo.findRoute(db, id))!);
    },

    async updateRoute(id: number, input: NotifyRouteInput): Promise<NotifyRoute> {
      const current = await repo.findRoute(db, id);
      if (!current) throw notFound();
      await repo.updateRoute(db, id, await routeRow(input, current.secret), iso(now()));
      return routeOut((await repo.findRoute(db, id))!);
    },

    async deleteRoute(id: number): Promise<void> {
      const deleted = await db.transaction().execute((tx) => repo.deleteRoute(tx, id));
      if (!deleted) throw notFound();
    },

    async testRoute(id: number, language: Language): Promise<NotifyTestResult> {
      const route = await repo.findRoute(db, id);
      if (!route) throw notFound();
      return testResult(await deps.notifier.test(route), language);
    },

    /**
     * A test e-mail to `to` through the saved SMTP server, as an e-mail route would send it. The
     * answer is one of a fixed set (connected, authentication refused, TLS failed, unreachable):
     * the remote's own words would make this a banner grabber.
     */
    async testSmtp(to: string, language: Language): Promise<NotifyTestResult> {
      const at = iso(now());
      const outcome = await deps.notifier.test({
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
      return testResult(outcome, language);
    },

    async listOutbox(query: NotifyOutboxQuery) {
      const page = query.page ?? 1;
      const pageSize = query.pageSize ?? 10;
      return { ...(await repo.listOutbox(db, { status: query.status, page, pageSize })), page, pageSize };
    },
  };
}

export type NotifySettings = ReturnType<typeof createNotifySettings>;
