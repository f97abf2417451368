import dayjs from 'dayjs';

/** An ISO time as the console shows it; empty for none. */
export const formatTime = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : '');
