// The plant's vocabulary: the kinds of thing the gateway simulates, their daily load shapes and
// the metrics each publishes. The generator, the supply topology and the plan all speak it.

const KINDS = ['meter', 'transformer', 'compressor', 'water', 'gas', 'fire', 'line'] as const;
export type Kind = (typeof KINDS)[number];

/** Daily shape a thing follows: two-shift production, office hours, or plant utilities. */
const LOAD_PROFILES = ['production', 'office', 'utility'] as const;
export type LoadProfile = (typeof LOAD_PROFILES)[number];

/** Metric identifiers each kind publishes, in the order `sample` writes them. */
export const METRICS: Record<Kind, readonly string[]> = {
  meter: ['P', 'EP', 'Ua', 'Ub', 'Uc', 'Ia', 'Ib', 'Ic', 'PF', 'F', 'EQ'],
  transformer: ['Pin', 'EPin', 'loadRate', 'oilTemp', 'windingTemp', 'ambientTemp'],
  compressor: [
    'status',
    'runHours',
    'startups',
    'stopHours',
    'P',
    'EP',
    'pressure',
    'airFlow',
    'motorTemp',
    'EQ',
  ],
  water: ['flow', 'total'],
  gas: ['gasFlow', 'gasTotal'],
  fire: ['smoke', 'temp', 'state'],
  line: ['rate', 'pieces'],
};

/** What the generator needs to know of a thing. */
export interface SimThingSpec {
  identifier: string;
  kind: Kind;
  /** kW (meters, compressors), kVA (transformers), m³/h or Nm³/h (water, gas); unused for fire sensors. */
  rated: number;
  profile: LoadProfile;
  /**
   * The metrics of its kind its category declares, when not all: a plant seeded by an older version
   * lacks the newer abilities (the demo seeds once), and ingest would refuse their values.
   */
  declared?: readonly string[];
  /**
   * Transformers: the loads (cabinet meters, compressors) on its 0.4 kV busbar section
   * (`supplyTopology`). Its input power is what they draw plus its own losses; without any it
   * draws its no-load loss only.
   */
  supplies?: readonly SimThingSpec[];
}
