// Times are ISO text in the database and epoch milliseconds in the engine.

export const iso = (ms: number) => new Date(ms).toISOString();
export const ms = (text: string | null) => (text === null ? null : Date.parse(text));
