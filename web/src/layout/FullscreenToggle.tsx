import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../lib/notify.ts';

export function FullscreenToggle() {
  const { t } = useTranslation();
  const [active, setActive] = useState(Boolean(document.fullscreenElement));
  useEffect(() => {
    const onChange = () => setActive(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  function onToggle() {
    if (!document.fullscreenEnabled) {
      notify.warning(t('navbar.fullscreenUnsupported'));
      return;
    }
    const done = active ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    done.catch(() => notify.warning(t('navbar.fullscreenUnsupported')));
  }

  const label = t(active ? 'navbar.exitFullscreen' : 'navbar.fullscreen');
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        aria-label={label}
        onClick={onToggle}
        icon={active ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
      />
    </Tooltip>
  );
}
