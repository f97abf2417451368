import type { Severity } from '@kilowatch/contract';

/**
 * The bell's warning sound, synthesised with the Web Audio API: no audio file ships with the
 * console, so there is no third-party licence to track (the sound is the project's own code).
 * A pattern of short square-wave beeps repeats every {@link SOUND_PERIOD_MS}; the pitch and the
 * number of beeps rise with the most severe ringing alarm.
 */

const SOUND_PERIOD_MS = 2000;

/** Pitch (Hz) and beeps per period by severity: a critical alarm is higher and more insistent. */
export const SEVERITY_TONES: Record<Severity, { hz: number; beeps: number }> = {
  critical: { hz: 1046, beeps: 3 },
  major: { hz: 880, beeps: 2 },
  minor: { hz: 698, beeps: 2 },
  warning: { hz: 587, beeps: 1 },
};

const BEEP_S = 0.16;
const GAP_S = 0.1;
const VOLUME = 0.15;

/** The parts of an AudioContext the sound uses (a test passes a fake). */
export interface AudioContextLike {
  readonly state: string;
  readonly currentTime: number;
  readonly destination: AudioNode;
  resume(): Promise<void>;
  createOscillator(): OscillatorNode;
  createGain(): GainNode;
}

export interface AlarmSoundOptions {
  makeContext?: () => AudioContextLike;
  /** Whether the page has had a user gesture; before one, browsers refuse to start audio. */
  hasGesture?: () => boolean;
  /** Told whenever the browser's block starts or ends, for the muted indicator. */
  onBlocked?: (blocked: boolean) => void;
}

const browserContext = (): AudioContextLike => new AudioContext();
const browserGesture = () =>
  (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } }).userActivation?.hasBeenActive ??
  false;

export class AlarmSound {
  private context: AudioContextLike | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private severity: Severity = 'warning';
  private blocked = false;
  private readonly makeContext: () => AudioContextLike;
  private readonly hasGesture: () => boolean;
  private readonly onBlocked: (blocked: boolean) => void;

  constructor(options: AlarmSoundOptions = {}) {
    this.makeContext = options.makeContext ?? browserContext;
    this.hasGesture = options.hasGesture ?? browserGesture;
    this.onBlocked = options.onBlocked ?? (() => {});
  }

  get playing(): boolean {
    return this.timer !== null;
  }

  /** Starts the loop (or changes its pitch); a no-op while it already plays that severity. */
  play(severity: Severity): void {
    this.severity = severity;
    if (this.timer !== null) return;
    this.timer = setInterval(() => this.beep(), SOUND_PERIOD_MS);
    this.beep();
  }

  pause(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** A user gesture happened: the context may start now; the next period sounds. */
  unlock(): void {
    if (!this.context) this.context = this.makeContext();
    this.context.resume().then(
      () => this.setBlocked(this.context?.state !== 'running'),
      () => this.setBlocked(true),
    );
  }

  private setBlocked(blocked: boolean) {
    if (blocked === this.blocked) return;
    this.blocked = blocked;
    this.onBlocked(blocked);
  }

  private beep(): void {
    // Made only after a gesture: a context made before one starts suspended, and the browser warns.
    if (!this.context) {
      if (!this.hasGesture()) {
        this.setBlocked(true);
        return;
      }
      this.context = this.makeContext();
    }
    const context = this.context;
    if (context.state !== 'running') {
      // Refused until a gesture: the indicator shows, and unlock() tries again on the first click.
      context.resume().then(
        () => this.setBlocked(context.state !== 'running'),
        () => this.setBlocked(true),
      );
      if (context.state !== 'running') {
        this.setBlocked(true);
        return;
      }
    }
    this.setBlocked(false);
    const { hz, beeps } = SEVERITY_TONES[this.severity];
    for (let i = 0; i < beeps; i++) {
      const start = context.currentTime + i * (BEEP_S + GAP_S);
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.type = 'square';
      oscillator.frequency.value = hz;
      // A short ramp in and out: a hard edge clicks.
      gain.gain.setValueAtTime(0, start);
      gain.gain.linearRampToValueAtTime(VOLUME, start + 0.01);
      gain.gain.setValueAtTime(VOLUME, start + BEEP_S - 0.02);
      gain.gain.linearRampToValueAtTime(0, start + BEEP_S);
      oscillator.connect(gain);
      gain.connect(context.destination);
      oscillator.start(start);
      oscillator.stop(start + BEEP_S);
    }
  }
}
