/** The plant's power and energy counter, as the server's overview sums them (docs/dashboard.md). */
export const POWER_METRIC = 'P';
export const ENERGY_METRIC = 'EP';
