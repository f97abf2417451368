import { VideoCameraOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCameras } from '../../api/videos.ts';

/** The /video address showing a device's cameras, at a moment (an alarm's) when given. */
export const cameraHref = (thingId: number, at?: string) =>
  `/video?thing=${thingId}${at ? `&at=${encodeURIComponent(at)}` : ''}`;

/**
 * Opens the cameras of a device (its own, then its regions'), from an alarm or a device screen;
 * with `at`, at that moment's recording. Shows nothing when the device has no camera.
 */
export function CameraLink({ thingId, at }: { thingId: number; at?: string }) {
  const { t } = useTranslation();
  const cameras = useCameras(thingId);
  const count = cameras.data?.length ?? 0;
  if (count === 0) return null;
  const recorded = cameras.data?.filter((c) => c.recording !== null).length ?? 0;
  return (
    <Link to={cameraHref(thingId, at)} data-testid="camera-link">
      <Button icon={<VideoCameraOutlined />}>
        {at && recorded > 0
          ? t('cameraLink.recording', { count: recorded })
          : t('cameraLink.cameras', { count })}
      </Button>
    </Link>
  );
}
