import { create } from 'zustand';

/** Count of pending foreground calls; the layout shows the 加载中... overlay while above 0. */
interface LoadingState {
  pending: number;
  start(): void;
  end(): void;
}

export const useLoadingStore = create<LoadingState>((set) => ({
  pending: 0,
  start: () => set((s) => ({ pending: s.pending + 1 })),
  end: () => set((s) => ({ pending: Math.max(0, s.pending - 1) })),
}));
