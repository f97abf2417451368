import { Button } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The save button of a system settings card, with a retry beside it while the setting could not
 * be read (saving then is refused: it would overwrite what was never shown).
 */
export function ConfigSaveButtons({
  config,
  saving,
  onSave,
  testId,
}: {
  config: { isLoading: boolean; isError: boolean; refetch: () => unknown };
  saving: boolean;
  onSave: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Button
        type="primary"
        onClick={onSave}
        loading={saving}
        disabled={config.isLoading || config.isError}
        data-testid={testId}
      >
        {t('system.logo.save')}
      </Button>
      {config.isError && (
        <Button type="link" onClick={() => config.refetch()}>
          {t('common.retry')}
        </Button>
      )}
    </>
  );
}
