import { useTranslation } from 'react-i18next';

export function Placeholder() {
  const { t } = useTranslation();
  return <p className="placeholder">{t('placeholder')}</p>;
}
