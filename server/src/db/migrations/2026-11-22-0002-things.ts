import { type Kysely, sql } from 'kysely';
import { autoIncrementId, type Dialect } from '../dialect.ts';

/** The standard units every install starts with: symbol, English name, quantity key. */
const UNITS: [symbol: string, name: string, quantity: string][] = [
  ['W', 'watt', 'power'],
  ['kW', 'kilowatt', 'power'],
  ['MW', 'megawatt', 'power'],
  ['kvar', 'kilovar', 'reactivePower'],
  ['kVA', 'kilovolt-ampere', 'apparentPower'],
  ['Wh', 'watt-hour', 'energy'],
  ['kWh', 'kilowatt-hour', 'energy'],
  ['MWh', 'megawatt-hour', 'energy'],
  ['kvarh', 'kilovar-hour', 'reactiveEnergy'],
  ['V', 'volt', 'voltage'],
  ['kV', 'kilovolt', 'voltage'],
  ['A', 'ampere', 'current'],
  ['Hz', 'hertz', 'frequency'],
  ['PF', 'power factor', 'powerFactor'],
  ['℃', 'degree Celsius', 'temperature'],
  ['%', 'percent', 'ratio'],
  ['%RH', 'relative humidity', 'humidity'],
  ['m³', 'cubic metre', 'volume'],
  ['L', 'litre', 'volume'],
  ['Nm³', 'normal cubic metre', 'volume'],
  ['m³/h', 'cubic metre per hour', 'flow'],
  ['L/min', 'litre per minute', 'flow'],
  ['Nm³/h', 'normal cubic metre per hour', 'flow'],
  ['t', 'tonne', 'mass'],
  ['kg', 'kilogram', 'mass'],
  ['t/h', 'tonne per hour', 'massFlow'],
  ['MPa', 'megapascal', 'pressure'],
  ['kPa', 'kilopascal', 'pressure'],
  ['Pa', 'pascal', 'pressure'],
  ['bar', 'bar', 'pressure'],
  ['h', 'hour', 'time'],
  ['min', 'minute', 'time'],
  ['s', 'second', 'time'],
  ['次', 'count', 'count'],
  ['ppm', 'parts per million', 'concentration'],
  ['mg/m³', 'milligram per cubic metre', 'concentration'],
  ['lx', 'lux', 'illuminance'],
  ['rpm', 'revolutions per minute', 'rotationalSpeed'],
  ['mm/s', 'millimetre per second', 'vibration'],
  ['m/s', 'metre per second', 'speed'],
  ['dB', 'decibel', 'soundLevel'],
  ['GJ', 'gigajoule', 'heat'],
  ['tce', 'tonne of coal equivalent', 'standardCoal'],
  ['kgCO₂', 'kilogram of CO₂', 'emission'],
  ['¥', 'yuan', 'cost'],
];

// Frozen in time: this file must keep producing the same tables even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('thing_categories')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Names are searched case-insensitively, so "Meter" and "meter" would be the same category.
  await sql`create unique index thing_categories_name_unique on thing_categories (lower(name))`.execute(db);

  await db.schema
    .createTable('thing_category_abilities')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('category_id', 'integer', (c) =>
      c.notNull().references('thing_categories.id').onDelete('cascade'),
    )
    .addColumn('identifier', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('data_type', 'text', (c) => c.notNull())
    .addColumn('aggregator', 'text', (c) => c.notNull())
    .addColumn('cumulative', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enum_options', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('thing_category_abilities_identifier_unique', ['category_id', 'identifier'])
    .execute();

  await db.schema
    .createTable('thing_models')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    // No cascade: deleting a category that models still use is refused (409).
    .addColumn('category_id', 'integer', (c) => c.notNull().references('thing_categories.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await sql`create unique index thing_models_name_unique on thing_models (category_id, lower(name))`.execute(
    db,
  );

  // A model's overrides of its category's abilities; NULL = inherit the category's value.
  await db.schema
    .createTable('thing_model_abilities')
    .addColumn('model_id', 'integer', (c) => c.notNull().references('thing_models.id').onDelete('cascade'))
    .addColumn('ability_id', 'integer', (c) =>
      c.notNull().references('thing_category_abilities.id').onDelete('cascade'),
    )
    .addColumn('name', 'text')
    .addColumn('unit', 'text')
    .addColumn('aggregator', 'text')
    .addColumn('cumulative', 'integer')
    .addColumn('sort', 'integer')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('thing_model_abilities_pk', ['model_id', 'ability_id'])
    .execute();
  await db.schema
    .createIndex('thing_model_abilities_ability_id')
    .on('thing_model_abilities')
    .column('ability_id')
    .execute();

  await db.schema
    .createTable('things')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    // Case-sensitive: identifiers travel in MQTT topics and line protocol as they are.
    .addColumn('identifier', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('model_id', 'integer', (c) => c.notNull().references('thing_models.id'))
    .addColumn('setting', 'text', (c) => c.notNull().defaultTo('{"attributes":[]}'))
    // The device's credential for telemetry ingest; looked up on every message, so unique+indexed.
    .addColumn('access_token', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('things_model_id').on('things').column('model_id').execute();

  // Abilities a thing does not have although its model does.
  await db.schema
    .createTable('thing_ability_removals')
    .addColumn('thing_id', 'integer', (c) => c.notNull().references('things.id').onDelete('cascade'))
    .addColumn('ability_id', 'integer', (c) =>
      c.notNull().references('thing_category_abilities.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('thing_ability_removals_pk', ['thing_id', 'ability_id'])
    .execute();
  await db.schema
    .createIndex('thing_ability_removals_ability_id')
    .on('thing_ability_removals')
    .column('ability_id')
    .execute();

  await db.schema
    .createTable('units')
    .addColumn('id', 'integer', autoIncrementId(dialect))
    .addColumn('symbol', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('quantity', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db
    .insertInto('units')
    .values(UNITS.map(([symbol, name, quantity], index) => ({ symbol, name, quantity, sort: index + 1 })))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'units',
    'thing_ability_removals',
    'things',
    'thing_model_abilities',
    'thing_models',
    'thing_category_abilities',
    'thing_categories',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
