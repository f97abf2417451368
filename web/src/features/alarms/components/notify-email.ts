/** The address check of the contract (SmtpSettings.from, NotifyRouteInput.recipients). */
export const EMAIL = /^[^\s@]+@[^\s@]+$/;
