/**
 * The worked example of docs/enpi.md as data: twelve baseline months (2025) of production and
 * heating degree days (base 18 ℃) with their energy, three reporting months (2026-01…03), and the
 * numbers a spreadsheet's LINEST gives for them. The regression test and the API test reproduce it.
 */
export const EXAMPLE = {
  baseline: {
    months: [
      '2025-01',
      '2025-02',
      '2025-03',
      '2025-04',
      '2025-05',
      '2025-06',
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
    ],
    output: [9000, 7500, 10200, 11000, 11800, 12000, 11500, 10800, 12300, 11200, 10500, 9800],
    hdd: [420, 360, 280, 150, 60, 10, 0, 0, 30, 140, 290, 400],
    energy: [148100, 130900, 149300, 145800, 148900, 147200, 141100, 137500, 149600, 148700, 150600, 153100],
  },
  reporting: {
    months: ['2026-01', '2026-02', '2026-03'],
    output: [9400, 8000, 10600],
    hdd: [400, 340, 260],
    energy: [143000, 129500, 146000],
  },
  model: {
    intercept: 48627.7084,
    coefficients: [8.12166881, 61.1881115],
    r2: 0.981013,
    cvrmse: 0.006612,
  },
  expected: [149446.64, 134405.02, 150626.31],
  savings: [6446.64, 4905.02, 4626.31],
  cusum: [6446.64, 11351.66, 15977.96],
} as const;
