import {
  ERP_CONFIG_IDENTIFIER,
  type ErpConfig,
  type LogoConfig,
  SCHEDULE_RUN_RETENTION_IDENTIFIER,
  SYSTEM_SETTING_IDENTIFIER,
  type SysConfig,
  type SysConfigInput,
  WEBHOOK_ALLOWED_HOSTS_IDENTIFIER,
} from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/index.ts';
import { isUniqueViolation, page } from '../../../db/sql.ts';
import { AppError } from '../../../errors.ts';
import { type AllowList, EMPTY_ALLOW_LIST, parseAllowList } from '../../../shared/outbound-address.ts';
import { parseErpConfig, readErpConfig } from './erp.ts';
import { parseLogo, readLogo } from './logo.ts';
import * as repo from './repository.ts';
import { parseRetentionDays, readRetentionDays } from './retention.ts';

const notFound = () => new AppError('NOT_FOUND', 404);
const taken = (identifier: string) =>
  new AppError('CONFLICT', 409, { identifier }, { message: 'sysconfig.identifierTaken' });
const protectedSetting = () =>
  new AppError(
    'UNPROCESSABLE',
    422,
    { identifier: SYSTEM_SETTING_IDENTIFIER },
    { message: 'sysconfig.protected' },
  );

const checkedAllowList = (value: string): string => {
  parseAllowList(value);
  return value.trim();
};

/**
 * Normalises the values the server reads itself, systemSetting (the logo) and erpConfig (the ERP
 * export), validated, as compact JSON, scheduleRunRetentionDays as a number and
 * webhookAllowedHosts checked entry by entry; other values are kept as sent.
 */
const checkedValue = (input: SysConfigInput): string =>
  input.identifier === SYSTEM_SETTING_IDENTIFIER
    ? JSON.stringify(parseLogo(input.value))
    : input.identifier === ERP_CONFIG_IDENTIFIER
      ? JSON.stringify(parseErpConfig(input.value))
      : input.identifier === SCHEDULE_RUN_RETENTION_IDENTIFIER
        ? String(parseRetentionDays(input.value))
        : input.identifier === WEBHOOK_ALLOWED_HOSTS_IDENTIFIER
          ? checkedAllowList(input.value)
          : input.value;

/** What the settings need of other modules. */
export interface SysConfigDeps {
  /** Whether a tariff exists (the ERP form names tariffs by id). */
  tariffExists: (id: number) => Promise<boolean>;
}

/** The name an erpConfig row gets when the ERP form creates it. */
const ERP_CONFIG_NAME = 'ERP 导出配置';

/** System settings (/sys_config); systemSetting holds the logo and cannot be removed. */
export function createSysConfigService(db: Kysely<DB>, now: () => number, deps: SysConfigDeps) {
  const iso = () => new Date(now()).toISOString();

  /** Read, change and write erpConfig in one transaction, creating the row when missing. */
  async function changeErp(change: (current: ErpConfig) => ErpConfig): Promise<ErpConfig> {
    return db.transaction().execute(async (trx) => {
      const row = await repo.findConfigByIdentifier(trx, ERP_CONFIG_IDENTIFIER);
      const next = parseErpConfig(JSON.stringify(change(readErpConfig(row?.value))));
      const value = JSON.stringify(next);
      if (row) {
        await repo.updateConfig(trx, row.id, { ...row, value }, iso());
      } else {
        const fields = { identifier: ERP_CONFIG_IDENTIFIER, name: ERP_CONFIG_NAME, value };
        const id = await repo.insertConfigIfAbsent(trx, fields, iso());
        if (id === undefined) throw taken(ERP_CONFIG_IDENTIFIER);
      }
      return next;
    });
  }

  async function checkTariff(id: number): Promise<void> {
    if (!(await deps.tariffExists(id))) {
      throw new AppError('NOT_FOUND', 404, { tariffId: id }, { message: 'tariff.notFound' });
    }
  }

  return {
    async list(query: { page?: number; pageSize?: number; identifier?: string }) {
      const { page: at, pageSize, limit, offset } = page(query);
      const { configs, total } = await repo.listConfigs(db, { identifier: query.identifier, limit, offset });
      return { list: configs, total, page: at, pageSize };
    },

    async create(input: SysConfigInput): Promise<SysConfig> {
      const value = checkedValue(input);
      const id = await repo.insertConfigIfAbsent(db, { ...input, value }, iso());
      if (id === undefined) throw taken(input.identifier);
      return (await repo.findConfig(db, id)) as SysConfig;
    },

    async update(id: number, input: SysConfigInput): Promise<SysConfig> {
      const value = checkedValue(input);
      await db
        .transaction()
        .execute(async (trx) => {
          const current = await repo.findConfig(trx, id);
          if (!current) throw notFound();
          if (current.identifier === SYSTEM_SETTING_IDENTIFIER && input.identifier !== current.identifier) {
            throw protectedSetting();
          }
          const holder = await repo.findConfigByIdentifier(trx, input.identifier);
          if (holder && holder.id !== id) throw taken(input.identifier);
          await repo.updateConfig(trx, id, { ...input, value }, iso());
        })
        .catch((error: unknown) => {
          throw isUniqueViolation(error) ? taken(input.identifier) : error;
        });
      return (await repo.findConfig(db, id)) as SysConfig;
    },

    async remove(id: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const current = await repo.findConfig(trx, id);
        if (!current) throw notFound();
        if (current.identifier === SYSTEM_SETTING_IDENTIFIER) throw protectedSetting();
        await repo.deleteConfig(trx, id);
      });
    },

    async logo(): Promise<LogoConfig> {
      return readLogo((await repo.findConfigByIdentifier(db, SYSTEM_SETTING_IDENTIFIER))?.value);
    },

    /** Days schedule runs are kept (the default until an admin saves `scheduleRunRetentionDays`). */
    async scheduleRunRetentionDays(): Promise<number> {
      return readRetentionDays(
        (await repo.findConfigByIdentifier(db, SCHEDULE_RUN_RETENTION_IDENTIFIER))?.value,
      );
    },

    /** The internal hosts alarm webhooks may reach (none until an admin saves `webhookAllowedHosts`). */
    async webhookAllowList(): Promise<AllowList> {
      const value = (await repo.findConfigByIdentifier(db, WEBHOOK_ALLOWED_HOSTS_IDENTIFIER))?.value;
      return value === undefined ? EMPTY_ALLOW_LIST : parseAllowList(value);
    },

    /** The ERP export's configuration (the default until an admin saves `erpConfig`). */
    async erpConfig(): Promise<ErpConfig> {
      return readErpConfig((await repo.findConfigByIdentifier(db, ERP_CONFIG_IDENTIFIER))?.value);
    },

    /** Saves the ERP form: the whole configuration, every tariff it names checked (404). */
    async saveErpConfig(config: ErpConfig): Promise<ErpConfig> {
      const ids = new Set([
        ...(config.tariffId ? [config.tariffId] : []),
        ...Object.values(config.tariffs ?? {}),
      ]);
      for (const id of ids) await checkTariff(id);
      return changeErp(() => config);
    },

    /** Makes a tariff the plant's (erpConfig's tariffId), the rest of the configuration kept. */
    async setPlantTariff(tariffId: number | null): Promise<number | null> {
      if (tariffId !== null) await checkTariff(tariffId);
      return (await changeErp((current) => ({ ...current, tariffId }))).tariffId ?? null;
    },
  };
}
export type SysConfigService = ReturnType<typeof createSysConfigService>;
