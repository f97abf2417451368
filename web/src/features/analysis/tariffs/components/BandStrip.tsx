import type { BandKind } from '@kilowatch/contract';
import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { BAND_COLORS, type StripSegment } from '../lib/band-strip.ts';

const TICKS = [0, 3, 6, 9, 12, 15, 18, 21, 24];

/** A day's bands as a 24-hour strip: one coloured block per stretch, hours beneath. */
export function BandStrip({ segments }: { segments: readonly StripSegment[] }) {
  const { t } = useTranslation();
  const name = (band: BandKind) => t(`tariffs.band.${band}`);
  return (
    <div
      data-testid="band-strip"
      role="img"
      aria-label={segments.map((s) => `${name(s.band)} ${s.from}–${s.to}`).join(', ')}
    >
      <div
        style={{
          position: 'relative',
          height: 40,
          borderRadius: 4,
          overflow: 'hidden',
          background: '#f0f0f0',
        }}
      >
        {segments.map((s) => (
          <Tooltip
            key={s.from}
            title={`${name(s.band)} ${s.from}–${s.to}${s.price === null ? '' : ` · ${s.price}`}`}
          >
            <div
              data-band={s.band}
              style={{
                position: 'absolute',
                left: `${s.left}%`,
                width: `${s.width}%`,
                top: 0,
                bottom: 0,
                background: BAND_COLORS[s.band].fill,
                color: BAND_COLORS[s.band].text,
                borderRight: '1px solid rgba(255,255,255,0.6)',
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
                fontSize: 12,
                overflow: 'hidden',
                whiteSpace: 'nowrap',
              }}
            >
              {s.width >= 4 ? name(s.band) : ''}
            </div>
          </Tooltip>
        ))}
      </div>
      <div style={{ position: 'relative', height: 18, fontSize: 11, color: 'rgba(0,0,0,0.65)' }}>
        {TICKS.map((h) => (
          <span
            key={h}
            style={{
              position: 'absolute',
              left: `${(h / 24) * 100}%`,
              transform: h === 0 ? 'none' : h === 24 ? 'translateX(-100%)' : 'translateX(-50%)',
            }}
          >
            {`${String(h).padStart(2, '0')}:00`}
          </span>
        ))}
      </div>
    </div>
  );
}
