import {
  BOARD_DEFAULT_INTERVAL_S,
  BOARD_MAX_INTERVAL_S,
  BOARD_MAX_WEIGHT,
  BOARD_MIN_INTERVAL_S,
  BOARD_MIN_WEIGHT,
  type BoardPage,
  type BoardPageInput,
} from '@kilowatch/contract';
import { Checkbox, Col, Form, Input, InputNumber, Modal, Row, Select, Switch, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRegionTree } from '../../../api/regions.ts';
import { useCategories } from '../../../api/things.ts';
import { regionOptions } from '../../../components/report-grid/index.ts';
import { validValues } from '../../../lib/form.ts';

export interface PageDialogProps {
  open: boolean;
  /** The page to change; null: a new one. */
  page: BoardPage | null;
  saving: boolean;
  onCancel: () => void;
  onSave: (input: BoardPageInput) => Promise<unknown>;
}

type FormValues = Required<Omit<BoardPageInput, 'categoryId'>> & { categoryId?: number | null };

const initialValues = (page: BoardPage | null): Partial<FormValues> =>
  page
    ? {
        name: page.name,
        regionId: page.regionId,
        successor: page.successor,
        categoryId: page.categoryId,
        interval: page.interval,
        weight: page.weight,
        enabled: page.enabled,
      }
    : { successor: true, interval: BOARD_DEFAULT_INTERVAL_S, weight: 1, enabled: true };

/** Adds or changes a board page: name, region (with its sub-regions or not), category, interval, weight, shown. */
export function PageDialog({ open, page, saving, onCancel, onSave }: PageDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const regions = useRegionTree();
  const categories = useCategories(open);

  const submit = async () => {
    const v = await validValues(form);
    if (!v) return;
    await onSave({ ...v, name: v.name.trim(), categoryId: v.categoryId ?? null });
  };

  return (
    <Modal
      open={open}
      title={page ? t('board.page.edit') : t('board.page.add')}
      onOk={submit}
      onCancel={onCancel}
      confirmLoading={saving}
      okText={t('board.save')}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false} initialValues={initialValues(page)}>
        <Form.Item
          name="name"
          label={t('board.page.name')}
          rules={[{ required: true, whitespace: true, message: t('board.page.nameRequired') }]}
        >
          <Input maxLength={64} />
        </Form.Item>
        <Row gutter={12}>
          <Col span={14}>
            <Form.Item
              name="regionId"
              label={t('board.page.region')}
              rules={[{ required: true, message: t('board.page.regionRequired') }]}
            >
              <TreeSelect
                treeData={regionOptions(regions.data ?? [])}
                fieldNames={{ label: 'title' }}
                treeDefaultExpandAll
                showSearch
                treeNodeFilterProp="title"
                aria-label={t('board.page.region')}
              />
            </Form.Item>
          </Col>
          <Col span={10}>
            <Form.Item
              name="successor"
              valuePropName="checked"
              label=" "
              tooltip={t('board.page.successorHelp')}
            >
              <Checkbox>{t('board.page.successor')}</Checkbox>
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="categoryId" label={t('board.page.category')} tooltip={t('board.page.categoryHelp')}>
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder={t('board.page.allCategories')}
            loading={categories.isPending}
            options={(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
          />
        </Form.Item>
        <Row gutter={12}>
          <Col span={8}>
            <Form.Item
              name="interval"
              label={t('board.page.interval')}
              tooltip={t('board.page.intervalHelp')}
              rules={[
                {
                  required: true,
                  type: 'integer',
                  min: BOARD_MIN_INTERVAL_S,
                  max: BOARD_MAX_INTERVAL_S,
                  message: t('board.page.intervalRange', {
                    min: BOARD_MIN_INTERVAL_S,
                    max: BOARD_MAX_INTERVAL_S,
                  }),
                },
              ]}
            >
              <InputNumber precision={0} suffix={t('board.seconds')} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item
              name="weight"
              label={t('board.page.weight')}
              tooltip={t('board.page.weightHelp')}
              rules={[
                {
                  required: true,
                  type: 'integer',
                  min: BOARD_MIN_WEIGHT,
                  max: BOARD_MAX_WEIGHT,
                  message: t('board.page.weightRange', { min: BOARD_MIN_WEIGHT, max: BOARD_MAX_WEIGHT }),
                },
              ]}
            >
              <InputNumber precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="enabled" valuePropName="checked" label={t('board.page.enabled')}>
              <Switch />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}
