/** Accounts e2e/start-server.mjs creates in the throwaway data folder. */
export const ADMIN = { username: 'admin', password: 'E2eAdmin2026' };
export const EDITOR = { username: 'editor', password: 'E2eEditor2026' };
