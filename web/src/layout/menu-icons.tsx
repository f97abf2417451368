import {
  AlertOutlined,
  ApartmentOutlined,
  AreaChartOutlined,
  ClusterOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FundProjectionScreenOutlined,
  HomeOutlined,
  LineChartOutlined,
  SettingOutlined,
  ThunderboltOutlined,
  ToolOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

/** Icons named in the shared route table (contract/src/routes.ts). */
export const MENU_ICONS: Record<string, ReactNode> = {
  home: <HomeOutlined />,
  dashboard: <DashboardOutlined />,
  diagram: <ThunderboltOutlined />,
  board: <FundProjectionScreenOutlined />,
  monitor: <LineChartOutlined />,
  analysis: <AreaChartOutlined />,
  alarm: <AlertOutlined />,
  video: <VideoCameraOutlined />,
  region: <ApartmentOutlined />,
  device: <DatabaseOutlined />,
  system: <ToolOutlined />,
  setting: <SettingOutlined />,
  cluster: <ClusterOutlined />,
};
